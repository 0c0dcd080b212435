/**
 * Every audit row the support desk writes (docs/design.md §7), built here and written through `writeSupportAudit`,
 * which takes the audit log as a parameter: the routes pass the process's one audit log, tests their own.
 */
import "server-only";
import type { AuditEventName } from "@/lib/shared/audit-events";
import type { EnvironmentName } from "@/lib/shared/contracts";
import type { AuditEntryInput } from "@/lib/server/audit";
import { appendAudit, auditEntry, type AuditFields, type AuditSink } from "@/lib/server/audit/record";
import { auditCaller } from "@/lib/server/identity/audit-caller";
import type { Role } from "@/lib/server/identity/roles";
import type { LookupOutcome } from "@/lib/shared/support-contract";

/** Who did it, from where (the same for every row of one call or batch). */
export interface AuditActor {
  userId: string;
  roles: readonly Role[];
  clientAddress: string | null;
}

export const SUPPORT_AUDIT_EVENTS = {
  lookup: "support_lookup",
  batchCard: "support_batch_card",
  batchStarted: "support_batch_started",
  batchCancelled: "support_batch_cancelled",
} as const satisfies Record<string, AuditEventName>;

function actorEntry(actor: AuditActor, fields: AuditFields): AuditEntryInput {
  return auditEntry(auditCaller({ id: actor.userId, roles: actor.roles }, actor.clientAddress), fields);
}

export interface LookupAuditFacts {
  actor: AuditActor;
  environment: EnvironmentName;
  cardNumber: string;
  /** A lookup outcome, or the code of the error that stopped the lookup (e.g. `no_credentials`). */
  outcome: LookupOutcome | (string & {});
  upstreamStatus: number | null;
  reason: string | null | undefined;
  /** Set for a card of a batch. */
  batch?: { id: string; position: number; line: number };
}

/** One row per looked-up card: the single lookup and each card of a batch alike. */
export function lookupAuditEntry(facts: LookupAuditFacts): AuditEntryInput {
  return actorEntry(facts.actor, {
    event: facts.batch ? SUPPORT_AUDIT_EVENTS.batchCard : SUPPORT_AUDIT_EVENTS.lookup,
    outcome: facts.outcome === "found" ? "success" : "failure",
    environment: facts.environment,
    operation: "balance_inquiry",
    card: facts.cardNumber,
    upstreamStatus: facts.upstreamStatus,
    reason: facts.reason || null,
    details: {
      result: facts.outcome,
      ...(facts.batch
        ? { batch_id: facts.batch.id, position: facts.batch.position, line: facts.batch.line }
        : {}),
    },
  });
}

export interface BatchAuditFacts {
  actor: AuditActor;
  environment: EnvironmentName;
  batchId: string;
  reason: string | null | undefined;
  cards: number;
  badLines?: number;
}

export function batchStartedAuditEntry(facts: BatchAuditFacts): AuditEntryInput {
  return actorEntry(facts.actor, {
    event: SUPPORT_AUDIT_EVENTS.batchStarted,
    outcome: "success",
    environment: facts.environment,
    operation: "balance_inquiry",
    reason: facts.reason || null,
    details: { batch_id: facts.batchId, cards: facts.cards, bad_lines: facts.badLines ?? 0 },
  });
}

export function batchCancelledAuditEntry(facts: BatchAuditFacts): AuditEntryInput {
  return actorEntry(facts.actor, {
    event: SUPPORT_AUDIT_EVENTS.batchCancelled,
    outcome: "success",
    environment: facts.environment,
    operation: "balance_inquiry",
    reason: facts.reason || null,
    details: { batch_id: facts.batchId, cards_not_run: facts.cards },
  });
}

/** Support rows reach the log the one way every row does (lib/server/audit/record). Resolves once committed. */
export async function writeSupportAudit(
  auditLog: AuditSink,
  entries: AuditEntryInput | readonly AuditEntryInput[],
): Promise<void> {
  const list: readonly AuditEntryInput[] = isList(entries) ? entries : [entries];
  await Promise.all(list.map((entry) => appendAudit(auditLog, entry)));
}

function isList(value: AuditEntryInput | readonly AuditEntryInput[]): value is readonly AuditEntryInput[] {
  return Array.isArray(value);
}
