/**
 * A background sweep, on every instance, for work whose process died and that nobody looks at: a support batch
 * whose runner's lease lapsed is taken over and finished here (Balance Inquiries can be run again safely; its
 * page would do the same when opened), and a certification run whose heartbeat went stale is marked
 * `interrupted` (never resumed: its Gift cases record transactions). Lists then never show them running forever.
 * Team inquiry runs past RUNS_RETENTION_DAYS are deleted here too.
 */
import "server-only";
import { createDatabaseRunStore } from "@/lib/server/certification/db-run-store";
import type { Database } from "@/lib/server/database";
import { logger } from "@/lib/server/util/logger";
import { pruneTeamRuns } from "@/lib/server/inquiry/runs/store";
import type { BatchRunner } from "@/lib/server/support/batch-runner";
import { abandonedBatchIds } from "@/lib/server/support/batch-store";
import type { ConsoleRoot } from "./console-root";

/**
 * How often each instance sweeps; a dead runner's lease (30 s) or heartbeat (CERTIFICATION_RUN_STALE_SECONDS,
 * 60 s) lapses first anyway, and every read of a run sweeps its own.
 */
const SWEEP_EVERY_MS = 30_000;

export interface SweepDeps {
  db: Database;
  runner: Pick<BatchRunner, "ensureRunning">;
  runs: { interruptStale(): Promise<number> };
  /** Client certifications (docs/design.md §11) left unfinished 2 h after their start are judged and expired. */
  clientCertifications?: { expireOverdue(): Promise<number> };
  /** RUNS_RETENTION_DAYS: team inquiry runs older than this are deleted (lib/server/inquiry/runs). */
  teamRunsRetentionDays?: number;
  now?: () => number;
}

export interface SweepResult {
  /** Batches this instance took over. */
  resumed: string[];
  /** Certification runs marked interrupted. */
  interrupted: number;
  /** Client certifications expired. */
  expired: number;
  /** Team inquiry runs deleted past their retention. */
  pruned: number;
}

export async function sweepAbandonedWork({
  db,
  runner,
  runs,
  clientCertifications,
  teamRunsRetentionDays,
  now = Date.now,
}: SweepDeps): Promise<SweepResult> {
  const interrupted = await runs.interruptStale();
  const expired = (await clientCertifications?.expireOverdue()) ?? 0;
  const pruned =
    teamRunsRetentionDays === undefined ? 0 : await pruneTeamRuns(db, teamRunsRetentionDays, new Date(now()));
  const resumed: string[] = [];
  for (const id of await abandonedBatchIds(db, new Date(now()))) {
    // Taken only when still nobody's (claimRunner is atomic): another instance's sweep may win it.
    await runner.ensureRunning(id);
    resumed.push(id);
  }
  return { resumed, interrupted, expired, pruned };
}

/** The sweep of one root: `start()` sweeps at once, then every SWEEP_EVERY_MS, until the databases close. */
export function createBackgroundSweep(root: Pick<ConsoleRoot, "config" | "services" | "parts">): {
  start(): void;
} {
  let started = false;
  let sweeping = false;
  let stopped = false;
  const sweep = async () => {
    if (sweeping || stopped) return;
    sweeping = true;
    try {
      const services = await root.services();
      const { db } = services;
      logSwept(
        await sweepAbandonedWork({
          db,
          // The support desk's modules load only when there is a batch to take over.
          runner: { ensureRunning: async (id) => (await services.support()).runner.ensureRunning(id) },
          runs: createDatabaseRunStore({
            db,
            staleAfterMs: root.config.certification.runStaleSeconds * 1000,
          }),
          clientCertifications: {
            expireOverdue: async () => (await services.clientCertification()).expireOverdue(),
          },
          teamRunsRetentionDays: root.config.runsRetentionDays,
        }),
      );
    } catch (error) {
      logger.warn({ error: error instanceof Error ? error.message : String(error) }, "sweep failed");
    } finally {
      sweeping = false;
    }
  };
  return {
    start() {
      if (started) return;
      started = true;
      void sweep();
      const timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
      timer.unref?.();
      // On shutdown the sweep stops before the database closes: a late tick would only log a failure.
      root.parts.databases.beforeClose(() => {
        stopped = true;
        clearInterval(timer);
      });
    },
  };
}

function logSwept(result: SweepResult): void {
  if (result.resumed.length === 0 && result.interrupted === 0 && result.expired === 0 && result.pruned === 0)
    return;
  logger.info(
    {
      resumed_batches: result.resumed,
      interrupted_runs: result.interrupted,
      expired_client_certifications: result.expired,
      pruned_team_runs: result.pruned,
    },
    "abandoned work swept",
  );
}
