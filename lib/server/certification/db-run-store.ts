/**
 * Certification runs in the console's database (PGlite or PostgreSQL, one code path): every instance lists
 * the runs and follows one's progress. The runner rewrites its run after every case; the owning process
 * also beats a heartbeat while the run is under way. A run whose process died (its heartbeat went stale,
 * or, on the single-process PGlite, any run found running at start) is marked `interrupted` and never
 * resumed: its Gift Balance Inquiry cases recorded transactions that a second attempt would duplicate.
 */
import "server-only";
import { and, desc, eq, inArray, isNull, lt, notInArray, sql, type SQL } from "drizzle-orm";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import type { Database } from "@/lib/server/database";
import { certificationRuns, monitorRuns } from "@/lib/server/database/schema";
import {
  countVerdicts,
  type CaseResult,
  type RunEnvironment,
  type RunState,
  type RunStatus,
  type RunWait,
  type RunSummary,
  type TokenRecord,
  type Verdict,
} from "@/lib/shared/certification-contract";

const ACTIVE: RunStatus[] = ["queued", "running"];

export interface DatabaseRunStoreOptions {
  db: Database;
  now?: () => Date;
  /** A running run whose heartbeat is older than this is interrupted. */
  staleAfterMs?: number;
}

export interface StoredBundle {
  zip: Uint8Array;
  fileName: string;
}

/** The parts of a RunState kept in the `state` column. */
interface StateColumn {
  environment: RunEnvironment;
  tokens: TokenRecord[];
  waiting?: RunWait;
}

type Row = typeof certificationRuns.$inferSelect;

function toRunState(row: Row): RunState {
  const state = row.state as unknown as StateColumn;
  return {
    id: row.id,
    status: row.status as RunStatus,
    environment: state.environment,
    client_id: row.clientId,
    operator: row.operatorName,
    operator_id: row.operatorId,
    allow_production_gift: row.allowProductionGift,
    case_ids: row.caseIds,
    total: row.total,
    done: row.done,
    started_at: row.startedAt.toISOString(),
    ...(row.finishedAt ? { finished_at: row.finishedAt.toISOString() } : {}),
    results: row.results as CaseResult[],
    exchanges: row.exchanges as ExchangeRecord[],
    tokens: state.tokens,
    ...(state.waiting ? { waiting: state.waiting } : {}),
  };
}

export function createDatabaseRunStore({
  db,
  now = () => new Date(),
  staleAfterMs = 60_000,
}: DatabaseRunStoreOptions) {
  /** Marks runs whose heartbeat went stale `interrupted`; returns how many. */
  const sweep = async (): Promise<number> => {
    const staleBefore = new Date(now().getTime() - staleAfterMs);
    return interruptWhere(
      db,
      and(inArray(certificationRuns.status, ACTIVE), lt(certificationRuns.heartbeatAt, staleBefore)),
    );
  };
  return {
    /** Marks runs whose process died (heartbeat stale) `interrupted`, as every read does; returns how many. */
    interruptStale: sweep,

    save: (run: RunState): Promise<void> => saveRun(db, run, now()),

    async get(id: string): Promise<RunState | undefined> {
      await sweep();
      const [row] = await db.select().from(certificationRuns).where(eq(certificationRuns.id, id));
      return row ? toRunState(row) : undefined;
    },

    /** Newest first, at most `limit`. */
    async list(limit = 100): Promise<RunSummary[]> {
      await sweep();
      return listRuns(db, limit);
    },

    sweep,

    /**
     * The owning process is alive and still running these runs; returns those still queued or running in the
     * database (a run another instance cancelled, e.g. for a suspension, is not).
     */
    async heartbeat(ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const alive = await db
        .update(certificationRuns)
        .set({ heartbeatAt: now() })
        .where(and(inArray(certificationRuns.id, [...ids]), inArray(certificationRuns.status, ACTIVE)))
        .returning({ id: certificationRuns.id });
      return new Set(alive.map((row) => row.id));
    },

    /**
     * Marks every queued or running run `operatorId` started `cancelled`, on every instance: the owner sees it at
     * its next heartbeat and stops after the case under way. Returns their ids.
     */
    cancelOperatorRuns: (operatorId: string, at: Date): Promise<string[]> => cancelRuns(db, operatorId, at),

    /**
     * Every queued or running run is interrupted: for a process that knows no other can be running runs on
     * this database (PGlite is single-process), called once at start.
     */
    interruptAllActive: (): Promise<number> => interruptWhere(db, inArray(certificationRuns.status, ACTIVE)),

    getBundle: (id: string): Promise<StoredBundle | undefined> => readBundle(db, id),

    saveBundle: (id: string, bundle: StoredBundle): Promise<StoredBundle> => keepBundle(db, id, bundle),

    /**
     * Deletes the ended runs `operatorId` started directly past the newest `keep` of them (bundles with them);
     * a monitor's runs are kept by its own cap. Returns how many went.
     */
    pruneOperatorRuns: (operatorId: string, keep: number): Promise<number> => pruneRuns(db, operatorId, keep),
  };
}

async function pruneRuns(db: Database, operatorId: string, keep: number): Promise<number> {
  const newest = db
    .select({ id: certificationRuns.id })
    .from(certificationRuns)
    .where(eq(certificationRuns.operatorId, operatorId))
    .orderBy(desc(certificationRuns.startedAt), desc(certificationRuns.id))
    .limit(keep);
  const dropped = await db
    .delete(certificationRuns)
    .where(
      and(
        eq(certificationRuns.operatorId, operatorId),
        sql`${certificationRuns.status} not in ('queued', 'running')`,
        notInArray(certificationRuns.id, newest),
        notInArray(certificationRuns.id, db.select({ id: monitorRuns.runId }).from(monitorRuns)),
      ),
    )
    .returning({ id: certificationRuns.id });
  return dropped.length;
}

async function cancelRuns(db: Database, operatorId: string, at: Date): Promise<string[]> {
  const cancelled = await db
    .update(certificationRuns)
    .set({ status: "cancelled", finishedAt: at })
    .where(and(eq(certificationRuns.operatorId, operatorId), inArray(certificationRuns.status, ACTIVE)))
    .returning({ id: certificationRuns.id });
  return cancelled.map((row) => row.id);
}

/** Marks the matching runs `interrupted`, ended at their last heartbeat; returns how many. */
async function interruptWhere(db: Database, where: SQL | undefined): Promise<number> {
  const swept = await db
    .update(certificationRuns)
    .set({ status: "interrupted", finishedAt: sql`${certificationRuns.heartbeatAt}` })
    .where(where)
    .returning({ id: certificationRuns.id });
  return swept.length;
}

async function saveRun(db: Database, run: RunState, at: Date): Promise<void> {
  const values = {
    id: run.id,
    environment: run.environment.name,
    status: run.status,
    operatorId: run.operator_id ?? run.operator,
    operatorName: run.operator,
    clientId: run.client_id,
    allowProductionGift: run.allow_production_gift,
    caseIds: run.case_ids,
    total: run.total,
    done: run.done,
    startedAt: new Date(run.started_at),
    finishedAt: run.finished_at ? new Date(run.finished_at) : null,
    heartbeatAt: at,
    state: {
      environment: run.environment,
      tokens: run.tokens,
      ...(run.waiting ? { waiting: run.waiting } : {}),
    } as unknown as Record<string, unknown>,
    verdicts: run.results.map((result) => ({ id: result.id, verdict: result.verdict })),
    results: run.results,
    exchanges: run.exchanges,
  };
  const { id: _id, ...changes } = values;
  // A run already ended (or declared interrupted by a sweep) is never written again.
  await db
    .insert(certificationRuns)
    .values(values)
    .onConflictDoUpdate({
      target: certificationRuns.id,
      set: changes,
      setWhere: inArray(certificationRuns.status, ACTIVE),
    });
}

async function listRuns(db: Database, limit: number): Promise<RunSummary[]> {
  const rows = await db
    .select({
      id: certificationRuns.id,
      status: certificationRuns.status,
      environment: certificationRuns.environment,
      clientId: certificationRuns.clientId,
      operatorId: certificationRuns.operatorId,
      operatorName: certificationRuns.operatorName,
      allowProductionGift: certificationRuns.allowProductionGift,
      total: certificationRuns.total,
      done: certificationRuns.done,
      startedAt: certificationRuns.startedAt,
      finishedAt: certificationRuns.finishedAt,
      verdicts: certificationRuns.verdicts,
    })
    .from(certificationRuns)
    .orderBy(desc(certificationRuns.startedAt), desc(certificationRuns.id))
    .limit(limit);
  return rows.map(toRunSummary);
}

type SummaryRow = Pick<
  Row,
  | "id"
  | "status"
  | "environment"
  | "clientId"
  | "operatorId"
  | "operatorName"
  | "allowProductionGift"
  | "total"
  | "done"
  | "startedAt"
  | "finishedAt"
  | "verdicts"
>;

function toRunSummary(row: SummaryRow): RunSummary {
  const verdicts = row.verdicts as { id: string; verdict: Verdict }[];
  return {
    id: row.id,
    status: row.status as RunStatus,
    environment: row.environment as RunSummary["environment"],
    client_id: row.clientId,
    operator: row.operatorName,
    operator_id: row.operatorId,
    allow_production_gift: row.allowProductionGift,
    total: row.total,
    done: row.done,
    started_at: row.startedAt.toISOString(),
    ...(row.finishedAt ? { finished_at: row.finishedAt.toISOString() } : {}),
    summary: countVerdicts(verdicts),
    verdicts,
  };
}

async function readBundle(db: Database, id: string): Promise<StoredBundle | undefined> {
  const [row] = await db
    .select({ zip: certificationRuns.bundle, fileName: certificationRuns.bundleFileName })
    .from(certificationRuns)
    .where(eq(certificationRuns.id, id));
  return row?.zip && row.fileName ? { zip: row.zip, fileName: row.fileName } : undefined;
}

/**
 * Keeps the bundle of an ended run. The first one stored wins (two instances may build one at once): the
 * bundle is signed evidence, and every download must be the same bytes.
 */
async function keepBundle(db: Database, id: string, bundle: StoredBundle): Promise<StoredBundle> {
  await db
    .update(certificationRuns)
    .set({ bundle: bundle.zip, bundleFileName: bundle.fileName })
    .where(
      and(
        eq(certificationRuns.id, id),
        isNull(certificationRuns.bundle),
        sql`${certificationRuns.status} not in ('queued', 'running')`,
      ),
    );
  const stored = await readBundle(db, id);
  if (!stored) throw new Error(`Run ${id} has not ended: no bundle kept.`);
  return stored;
}

/** Also a RunStore: the runner writes through it. */
export type DatabaseRunStore = ReturnType<typeof createDatabaseRunStore>;
