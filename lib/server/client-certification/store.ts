/**
 * Client certifications and their recorded calls in the shared database (docs/design.md §11). One-shot behaviours
 * are consumed with a conditional UPDATE … RETURNING, so across N instances exactly one call takes each.
 */
import "server-only";
import { and, asc, desc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "@/lib/server/database";
import { clientCertificationCalls, clientCertifications } from "@/lib/server/database/schema";
import type { ClientCallRecord, ClientCheckResult } from "@/lib/shared/client-certification-contract";
import type { CallFacts } from "./judge";

export type CertificationRow = typeof clientCertifications.$inferSelect;
type NewCertificationRow = typeof clientCertifications.$inferInsert;

interface StoredCall {
  facts: CallFacts;
  record: ClientCallRecord;
}

export const ACTIVE_STATUSES = ["waiting", "running"] as const;

/** Calls one certification keeps; later ones are only counted (`calls_dropped`). */
export const MAX_KEPT_CALLS = 2000;

export function createClientCertificationStore(db: Database) {
  return { ...certificationReads(db), ...certificationWrites(db), ...recordedCalls(db), ...callReads(db) };
}

function certificationReads(db: Database) {
  return {
    async get(id: string): Promise<CertificationRow | undefined> {
      const [row] = await db.select().from(clientCertifications).where(eq(clientCertifications.id, id));
      return row;
    },

    async byClientId(clientId: string): Promise<CertificationRow | undefined> {
      const [row] = await db
        .select()
        .from(clientCertifications)
        .where(eq(clientCertifications.clientId, clientId));
      return row;
    },

    /** Newest first; only `operatorId`'s when given. */
    async list(limit = 50, operatorId?: string): Promise<CertificationRow[]> {
      return db
        .select()
        .from(clientCertifications)
        .where(operatorId === undefined ? undefined : eq(clientCertifications.operatorId, operatorId))
        .orderBy(desc(clientCertifications.startedAt))
        .limit(limit);
    },
  };
}

function certificationWrites(db: Database) {
  /** Updates an active certification; false when it had already ended (another instance finished it). */
  const updateActive = async (id: string, values: Partial<NewCertificationRow>): Promise<boolean> => {
    const updated = await db
      .update(clientCertifications)
      .set(values)
      .where(and(eq(clientCertifications.id, id), inArray(clientCertifications.status, [...ACTIVE_STATUSES])))
      .returning({ id: clientCertifications.id });
    return updated.length > 0;
  };
  return {
    async insert(row: NewCertificationRow): Promise<void> {
      await db.insert(clientCertifications).values(row);
    },

    updateActive,

    async saveChecks(
      id: string,
      checks: ClientCheckResult[],
      values: Partial<NewCertificationRow>,
    ): Promise<boolean> {
      return updateActive(id, { ...values, checks });
    },

    /** Takes an armed one-shot behaviour; true for exactly one caller. */
    async takeFlag(clientId: string, flag: "delayArmed" | "rateLimitArmed"): Promise<boolean> {
      const column = clientCertifications[flag];
      const taken = await db
        .update(clientCertifications)
        .set({ [flag]: false })
        .where(and(eq(clientCertifications.clientId, clientId), eq(column, true)))
        .returning({ id: clientCertifications.id });
      return taken.length > 0;
    },
  };
}

/** The next call number, or null when the certification keeps no more (then the call is counted as dropped). */
function seqClaimer(db: Database) {
  return async (certificationId: string): Promise<number | null> => {
    const [claimed] = await db
      .update(clientCertifications)
      .set({ callsKept: sql`${clientCertifications.callsKept} + 1` })
      .where(
        and(eq(clientCertifications.id, certificationId), lt(clientCertifications.callsKept, MAX_KEPT_CALLS)),
      )
      .returning({ seq: clientCertifications.callsKept });
    if (claimed) return claimed.seq;
    await db
      .update(clientCertifications)
      .set({ callsDropped: sql`${clientCertifications.callsDropped} + 1` })
      .where(eq(clientCertifications.id, certificationId));
    return null;
  };
}

function recordedCalls(db: Database) {
  const claimSeq = seqClaimer(db);
  return {
    /** Keeps the call unless the certification holds MAX_KEPT_CALLS already; false when it was dropped. */
    async addCall(certificationId: string, call: StoredCall): Promise<boolean> {
      const seq = await claimSeq(certificationId);
      if (seq === null) return false;
      await db.insert(clientCertificationCalls).values({
        id: call.record.id,
        certificationId,
        seq,
        step: call.record.step,
        startedAt: new Date(call.record.started_at),
        durationMs: Math.round(call.record.duration_ms),
        operation: call.record.operation,
        status: call.record.status,
        requestId: call.record.request_id?.slice(0, 200) ?? null,
        record: { ...call.record, seq },
        facts: call.facts,
        planId: call.facts.plan_id ?? null,
      });
      return true;
    },

    /** Refused token requests: counted, and when the last came, nothing else. */
    async countRefused(clientId: string, count: number, at: Date): Promise<void> {
      await db
        .update(clientCertifications)
        .set({
          refusedTokenRequests: sql`${clientCertifications.refusedTokenRequests} + ${count}`,
          lastRefusedAt: at,
        })
        .where(eq(clientCertifications.clientId, clientId));
    },
  };
}

function callReads(db: Database) {
  return {
    /** The facts of every kept call, in arrival order (what the judge reads). */
    async facts(certificationId: string): Promise<CallFacts[]> {
      const rows = await db
        .select({ facts: clientCertificationCalls.facts })
        .from(clientCertificationCalls)
        .where(eq(clientCertificationCalls.certificationId, certificationId))
        .orderBy(asc(clientCertificationCalls.startedAt), asc(clientCertificationCalls.id));
      return rows.map((row) => row.facts as CallFacts);
    },

    /** Kept records numbered after `after` (all when undefined), at most `limit` of them, in the order kept. */
    async records(
      certificationId: string,
      after?: number,
      limit = MAX_KEPT_CALLS,
    ): Promise<ClientCallRecord[]> {
      const ofIt = eq(clientCertificationCalls.certificationId, certificationId);
      const rows = await db
        .select({ record: clientCertificationCalls.record })
        .from(clientCertificationCalls)
        .where(after === undefined ? ofIt : and(ofIt, gt(clientCertificationCalls.seq, after)))
        .orderBy(asc(clientCertificationCalls.seq), asc(clientCertificationCalls.startedAt))
        .limit(limit);
      return rows.map((row) => row.record as ClientCallRecord);
    },
  };
}

export type ClientCertificationStore = ReturnType<typeof createClientCertificationStore>;
