/**
 * Client certifications and their recorded calls in the shared database (DESIGN.md §11). One-shot behaviours
 * are consumed with a conditional UPDATE … RETURNING, so across N instances exactly one call takes each.
 */
import "server-only";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "@/lib/server/database";
import { clientCertificationCalls, clientCertifications } from "@/lib/server/database/schema";
import type { ClientCallRecord, ClientCheckResult } from "@/lib/shared/client-certification-contract";
import type { CallFacts } from "./judge";

export type CertificationRow = typeof clientCertifications.$inferSelect;
export type NewCertificationRow = typeof clientCertifications.$inferInsert;

export interface StoredCall {
  facts: CallFacts;
  record: ClientCallRecord;
}

export const ACTIVE_STATUSES = ["waiting", "running"] as const;

export function createClientCertificationStore(db: Database) {
  return { ...certificationReads(db), ...certificationWrites(db), ...recordedCalls(db) };
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

    async list(limit = 50): Promise<CertificationRow[]> {
      return db
        .select()
        .from(clientCertifications)
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

function recordedCalls(db: Database) {
  return {
    async addCall(certificationId: string, call: StoredCall): Promise<void> {
      await db.insert(clientCertificationCalls).values({
        id: call.record.id,
        certificationId,
        step: call.record.step,
        startedAt: new Date(call.record.started_at),
        durationMs: Math.round(call.record.duration_ms),
        operation: call.record.operation,
        status: call.record.status,
        requestId: call.record.request_id?.slice(0, 200) ?? null,
        record: call.record,
        facts: call.facts,
      });
    },

    async calls(certificationId: string): Promise<StoredCall[]> {
      const rows = await db
        .select({ record: clientCertificationCalls.record, facts: clientCertificationCalls.facts })
        .from(clientCertificationCalls)
        .where(eq(clientCertificationCalls.certificationId, certificationId))
        .orderBy(asc(clientCertificationCalls.startedAt), asc(clientCertificationCalls.id));
      return rows.map((row) => ({ record: row.record as ClientCallRecord, facts: row.facts as CallFacts }));
    },
  };
}

export type ClientCertificationStore = ReturnType<typeof createClientCertificationStore>;
