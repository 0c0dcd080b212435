/**
 * When checkpoints are written: after every `everyRows` rows this process appended, every `everyMs` when the
 * head moved (rows of any instance), once shortly after start (rows left by earlier runs or versions), and at
 * shutdown. Never on a request's path: a checkpoint costs one SELECT of the head and one INSERT, per checkpoint.
 * With N instances on one PostgreSQL each writes its own; verify accepts them all (one key).
 */
import "server-only";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { eq } from "drizzle-orm";
import type { Database } from "@/lib/server/database";
import { auditChainHead } from "@/lib/server/database/schema";
import { logger } from "@/lib/server/util/logger";
import { writeCheckpoint } from "./checkpoint";
import type { AuditKeys } from "./keys";

export interface CheckpointOptions {
  /** The append-only file (DATA_DIR/audit-checkpoints.jsonl). */
  file: string;
  everyRows?: number;
  everyMs?: number;
  /** Names this process in its checkpoints; host and a random suffix by default. */
  instance?: string;
}

export interface Checkpointer {
  /** Counts appended rows; starts a checkpoint in the background when enough accumulated. */
  rowsAppended(count: number): void;
  /** Checkpoints the current head now (if it moved since this process's last one). */
  checkpointNow(): Promise<void>;
  /** Stops the timer and writes a last checkpoint. */
  close(): Promise<void>;
}

export function createCheckpointer(
  db: Database,
  keys: AuditKeys,
  options: CheckpointOptions,
  now: () => Date,
): Checkpointer {
  const everyRows = options.everyRows ?? 1000;
  const instance = options.instance ?? `${hostname()}-${randomBytes(4).toString("hex")}`.slice(0, 128);
  let rowsSince = 0;
  let lastSeq = -1;
  let running: Promise<void> = Promise.resolve();

  async function checkpoint(): Promise<void> {
    const [head] = await db.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
    if (!head || head.lastSeq <= lastSeq || head.lastSeq === 0) return;
    await writeCheckpoint(db, keys, options.file, {
      v: 1,
      seq: head.lastSeq,
      hash: head.lastHash,
      keyed_from: head.keyedFrom,
      at: now().toISOString(),
      instance,
    });
    lastSeq = head.lastSeq;
  }

  /** One at a time, in order; a failure is logged and the next attempt tries again. */
  const checkpointNow = (): Promise<void> =>
    (running = running.then(checkpoint).catch((error: unknown) => {
      logger.warn(
        { error: error instanceof Error ? error.message : String(error) },
        "audit checkpoint failed",
      );
    }));

  const timers: NodeJS.Timeout[] = [];
  if (options.everyMs && options.everyMs > 0) {
    timers.push(setInterval(() => void checkpointNow(), options.everyMs));
    timers.push(setTimeout(() => void checkpointNow(), Math.min(options.everyMs, 1000)));
    for (const timer of timers) timer.unref?.();
  }

  return {
    rowsAppended(count) {
      rowsSince += count;
      if (rowsSince < everyRows) return;
      rowsSince = 0;
      void checkpointNow();
    },
    checkpointNow,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      await checkpointNow();
    },
  };
}
