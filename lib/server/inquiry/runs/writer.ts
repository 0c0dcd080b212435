/**
 * Team runs written together: the runs kept during one turn of the event loop go in one statement (at most
 * MAX_BATCH), as the audit log's group commit does, so a busy team console pays one insert per batch rather than
 * one per inquiry. Still off the response path: nobody waits for it. A batch the database refuses is written again
 * run by run, so one bad run cannot lose the others, and each run still refused rejects its own promise.
 */
import "server-only";
import type { Database } from "@/lib/server/database";
import { recordTeamRuns, type RecordRunInput } from "./store";

const MAX_BATCH = 100;

export type TeamRunWriter = (input: RecordRunInput) => Promise<void>;

interface Pending {
  input: RecordRunInput;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function createTeamRunWriter(
  db: Database,
  write: (db: Database, inputs: readonly RecordRunInput[]) => Promise<void> = recordTeamRuns,
): TeamRunWriter {
  const queue: Pending[] = [];
  let scheduled = false;

  async function writeOneByOne(batch: Pending[]): Promise<void> {
    for (const pending of batch) {
      await write(db, [pending.input]).then(pending.resolve, pending.reject);
    }
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      try {
        await write(
          db,
          batch.map((pending) => pending.input),
        );
        batch.forEach((pending) => pending.resolve());
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        else await writeOneByOne(batch);
      }
    }
    scheduled = false;
  }

  return (input) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => void drain());
    });
}
