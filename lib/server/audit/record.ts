/**
 * The one way an audit row is written: who did it and from where (the caller) merged with what was done, then
 * appended. A row that cannot be written is never lost: made safe as it would have been stored, it goes to the
 * server log, and the call fails with 503 `storage_unavailable`.
 */
import "server-only";
import type { AuditEventName } from "@/lib/shared/audit-events";
import type { Role } from "@/lib/shared/contracts";
import { ApiError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import type { AuditEntryInput } from "./entry";

/** Who did it and from where; `cardMask` is how the caller may see a card (lib/server/identity/audit-caller). */
export interface AuditCaller {
  userId: string | null;
  roles: readonly Role[];
  clientAddress: string | null;
  cardMask: "last4" | "first6last4";
}

/** An audit row's fields that the caller's code knows; `recordAudit` adds who, from where and the card mask. */
export type AuditFields = Omit<AuditEntryInput, "clientAddress" | "cardMask" | "event"> & {
  event: AuditEventName;
};

/** Where rows go: the audit log (and, when it has it, how a row is made safe for the log). */
export interface AuditSink {
  append(entry: AuditEntryInput): Promise<unknown>;
  safeRow?(entry: AuditEntryInput): unknown;
}

/** The row: the caller's who and where, then the fields (which may name another user, e.g. a session's). */
export function auditEntry(caller: AuditCaller, fields: AuditFields): AuditEntryInput {
  return {
    userId: caller.userId,
    roles: [...caller.roles],
    clientAddress: caller.clientAddress,
    cardMask: caller.cardMask,
    ...fields,
  };
}

/** Resolves once the row is committed. */
export async function appendAudit(auditLog: AuditSink, entry: AuditEntryInput): Promise<void> {
  try {
    await auditLog.append(entry);
  } catch (error) {
    // Never lost: the row, made safe as it would have been stored, goes to the server log.
    let safe: unknown = { event: entry.event, outcome: entry.outcome };
    try {
      if (auditLog.safeRow) safe = auditLog.safeRow(entry);
    } catch {
      // The event and outcome stand in for a row that cannot even be made.
    }
    logger.error(
      { audit_unwritten: safe, error: error instanceof Error ? error.message : String(error) },
      "audit row could not be written",
    );
    throw new ApiError(
      "storage_unavailable",
      "The console could not write this call's audit row, so it reports it as failed; the row was logged.",
    );
  }
}

export function recordAudit(auditLog: AuditSink, caller: AuditCaller, fields: AuditFields): Promise<void> {
  return appendAudit(auditLog, auditEntry(caller, fields));
}
