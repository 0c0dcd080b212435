/**
 * Reads an evidence bundle's entries in a worker thread (./unzip-worker.mjs), within bounds: the request
 * thread never inflates anything, and a bundle past a bound is refused (413 bundle_too_large) as soon as
 * the worker sees it. Used by the verify route and by `npm run verify-evidence` alike.
 */
import "server-only";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { z } from "zod";
import { ApiError } from "@/lib/server/util/errors";

export interface BundleLimits {
  maxEntries: number;
  /** Largest uncompressed size of one file, declared or actual. */
  maxEntryBytes: number;
  /** Largest uncompressed size of all files together. */
  maxTotalBytes: number;
  /** Largest size of a file the verifier reads whole (manifest, signature, key, checksums). */
  maxKeptBytes: number;
}

/**
 * A full run's bundle has a few hundred entries and inflates to a few MiB; these leave room for large runs
 * while keeping a hostile upload's cost small.
 */
export const BUNDLE_LIMITS: BundleLimits = {
  maxEntries: 5_000,
  maxEntryBytes: 64 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxKeptBytes: 16 * 1024 * 1024,
};

export interface BundleEntry {
  name: string;
  size: number;
  sha256: string;
}

export type BundleContents =
  | { readable: true; entries: BundleEntry[]; kept: Map<string, Uint8Array> }
  | { readable: false; reason: string };

const workerAnswer = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("entries"),
    entries: z.array(z.object({ name: z.string(), size: z.number(), sha256: z.string() })),
    kept: z.record(z.string(), z.instanceof(Uint8Array)),
  }),
  z.object({ kind: z.enum(["too_large", "unreadable"]), message: z.string() }),
]);

/** In the repository and in the standalone output alike, next to the server's working directory. */
const WORKER_FILE = path.join("lib", "server", "certification", "evidence", "unzip-worker.mjs");

function workerPath(): string {
  const file = path.join(process.cwd(), WORKER_FILE);
  if (!existsSync(file))
    throw new Error(`${WORKER_FILE} must ship next to the server (not found in ${process.cwd()})`);
  return file;
}

/**
 * Readers at once in this process: each is bounded, but many uploads together would still take every core
 * and their memory; later ones wait their turn.
 */
const MAX_READERS = Math.max(1, Math.min(2, availableParallelism() - 1));
let readers = 0;
const waiting: (() => void)[] = [];

async function takeTurn<T>(work: () => Promise<T>): Promise<T> {
  if (readers >= MAX_READERS) await new Promise<void>((resolve) => waiting.push(resolve));
  else readers += 1;
  try {
    return await work();
  } finally {
    // The turn passes straight to the next waiter, or is given back.
    const next = waiting.shift();
    if (next) next();
    else readers -= 1;
  }
}

function runWorker(zip: Uint8Array, limits: BundleLimits, keep: readonly string[]): Promise<unknown> {
  // A copy the worker owns: the caller's bytes stay usable, and nothing is shared across threads.
  const copy = zip.slice();
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerPath(), {
      workerData: { zip: copy, limits, keep: [...keep] },
      transferList: [copy.buffer],
    });
    worker.once("message", (message: unknown) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the unzip worker exited (${code}) without an answer`)));
  });
}

/** The bundle's entries with their SHA-256, and the bytes of the `keep` files; throws 413 past a bound. */
export async function readBundle(
  zip: Uint8Array,
  keep: readonly string[],
  limits: BundleLimits = BUNDLE_LIMITS,
): Promise<BundleContents> {
  const answer = workerAnswer.parse(await takeTurn(() => runWorker(zip, limits, keep)));
  if (answer.kind === "too_large") {
    throw new ApiError(
      "bundle_too_large",
      `The bundle is refused unread past a bound: ${answer.message}. An evidence bundle is far smaller.`,
    );
  }
  if (answer.kind !== "entries") return { readable: false, reason: answer.message };
  return { readable: true, entries: answer.entries, kept: new Map(Object.entries(answer.kept)) };
}
