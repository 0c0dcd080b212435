/**
 * Fault plans in the shared database (docs/design.md §14). A call is counted in its plan with one conditional
 * UPDATE … RETURNING, so across instances every call of a kind gets its own ordinal and exactly one takes a fault.
 */
import "server-only";
import { and, asc, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Database } from "@/lib/server/database";
import {
  clientCertificationCalls,
  clientCertificationPlans,
  clientCertifications,
} from "@/lib/server/database/schema";
import type { ClientCheckResult } from "@/lib/shared/client-certification-contract";
import type { CallKind, PlannedFault } from "@/lib/shared/fault-families";
import type { CallFacts } from "./judge";

export type PlanRow = typeof clientCertificationPlans.$inferSelect;

export interface StoredPlanFaults {
  faults: PlannedFault[];
  reproducer_of: string | null;
}

export function createPlanStore(db: Database) {
  return { ...planReads(db), ...planWrites(db) };
}

function planReads(db: Database) {
  return {
    async list(certificationId: string): Promise<PlanRow[]> {
      return db
        .select()
        .from(clientCertificationPlans)
        .where(eq(clientCertificationPlans.certificationId, certificationId))
        .orderBy(asc(clientCertificationPlans.number));
    },

    async get(certificationId: string, planId: string): Promise<PlanRow | undefined> {
      const [row] = await db
        .select()
        .from(clientCertificationPlans)
        .where(
          and(
            eq(clientCertificationPlans.certificationId, certificationId),
            eq(clientCertificationPlans.id, planId),
          ),
        );
      return row;
    },

    /** The newest ended plan of this certification with this code (the tolerant-reader check's reference). */
    async latestEnded(certificationId: string, code: string, before: number): Promise<PlanRow | undefined> {
      const [row] = await db
        .select()
        .from(clientCertificationPlans)
        .where(
          and(
            eq(clientCertificationPlans.certificationId, certificationId),
            eq(clientCertificationPlans.code, code),
            isNotNull(clientCertificationPlans.endedAt),
            sql`${clientCertificationPlans.number} < ${before}`,
          ),
        )
        .orderBy(desc(clientCertificationPlans.number))
        .limit(1);
      return row;
    },
  };
}

function planWrites(db: Database) {
  return {
    async insert(row: typeof clientCertificationPlans.$inferInsert): Promise<void> {
      await db.insert(clientCertificationPlans).values(row);
    },

    /** Counts a call of `kind` in the plan if it is still armed; its ordinal and the plan's faults, or null. */
    async count(planId: string, kind: CallKind): Promise<{ seq: number; faults: StoredPlanFaults } | null> {
      const path = `{${kind}}`;
      const [row] = await db
        .update(clientCertificationPlans)
        .set({
          counts: sql`jsonb_set(${clientCertificationPlans.counts}, ${path}::text[], to_jsonb(coalesce((${clientCertificationPlans.counts}->>${kind})::int, 0) + 1))`,
        })
        .where(and(eq(clientCertificationPlans.id, planId), isNull(clientCertificationPlans.endedAt)))
        .returning({ counts: clientCertificationPlans.counts, faults: clientCertificationPlans.faults });
      if (!row) return null;
      return { seq: row.counts[kind] ?? 1, faults: row.faults as StoredPlanFaults };
    },

    async end(
      planId: string,
      values: { endedAt: Date; exitCode: number | null; result: ClientCheckResult[] },
    ): Promise<void> {
      await db.update(clientCertificationPlans).set(values).where(eq(clientCertificationPlans.id, planId));
    },

    async setCurrent(certificationId: string, planId: string | null): Promise<void> {
      await db
        .update(clientCertifications)
        .set({ currentPlanId: planId })
        .where(eq(clientCertifications.id, certificationId));
    },

    /** Every token the client holds becomes unusable now (the revoking fault). */
    async revokeNow(certificationId: string, at: Date): Promise<void> {
      await db
        .update(clientCertifications)
        .set({ revokedBefore: at })
        .where(eq(clientCertifications.id, certificationId));
    },

    /** The facts and log numbers of the calls made under a plan, in arrival order. */
    async calls(planId: string): Promise<{ seq: number; facts: CallFacts }[]> {
      const rows = await db
        .select({ seq: clientCertificationCalls.seq, facts: clientCertificationCalls.facts })
        .from(clientCertificationCalls)
        .where(eq(clientCertificationCalls.planId, planId))
        .orderBy(asc(clientCertificationCalls.startedAt), asc(clientCertificationCalls.seq));
      return rows.map((row) => ({ seq: row.seq, facts: row.facts as CallFacts }));
    },
  };
}

export type PlanStore = ReturnType<typeof createPlanStore>;
