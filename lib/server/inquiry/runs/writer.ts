/**
 * Team runs written together: the runs kept within a short window go in one statement (at most MAX_BATCH), so a
 * busy team console pays one insert per window rather than one per inquiry. Nobody waits for it: the run is off
 * the response path, so the window costs no answer any time, and it is flushed before the database closes.
 * A batch the database refuses is written again run by run, so one bad run cannot lose the others, and each run
 * still refused rejects its own promise.
 */
import "server-only";
import type { Database } from "@/lib/server/database";
import { writeBatchOrEach } from "@/lib/server/database/batch-write";
import { recordTeamRuns, type RecordRunInput } from "./store";

const MAX_BATCH = 100;

/** How long the first run of a batch waits for others; a statement costs far more than the rows it carries. */
const COLLECT_MS = 50;

export interface TeamRunWriter {
  keep(input: RecordRunInput): Promise<void>;
  /** Writes what is waiting now and resolves when every batch is in. */
  flush(): Promise<void>;
}

interface Pending {
  input: RecordRunInput;
  resolve: () => void;
  reject: (error: unknown) => void;
}

type WriteRuns = (db: Database, inputs: readonly RecordRunInput[]) => Promise<void>;

export function createTeamRunWriter(
  db: Database,
  write: WriteRuns = recordTeamRuns,
  collectMs = COLLECT_MS,
): TeamRunWriter {
  const queue: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;
  let draining: Promise<void> | undefined;

  async function commit(batch: Pending[]): Promise<void> {
    await write(
      db,
      batch.map((pending) => pending.input),
    );
    batch.forEach((pending) => pending.resolve());
  }

  async function drainQueue(): Promise<void> {
    while (queue.length > 0) await writeBatchOrEach(queue.splice(0, MAX_BATCH), commit);
  }

  function schedule(): void {
    if (timer === undefined && draining === undefined) timer = setTimeout(() => void drain(), collectMs);
  }

  /** One drain at a time; runs that arrive during it are taken by the same loop, or by the next window. */
  function drain(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    draining ??= drainQueue().finally(() => {
      draining = undefined;
      if (queue.length > 0) schedule();
    });
    return draining;
  }

  return {
    keep: (input) =>
      new Promise<void>((resolve, reject) => {
        queue.push({ input, resolve, reject });
        schedule();
      }),
    async flush() {
      while (queue.length > 0 || draining) await drain();
    },
  };
}
