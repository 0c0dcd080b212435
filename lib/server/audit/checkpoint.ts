/**
 * Signed checkpoints of the chain head: `{seq, hash, keyed_from, at, instance}` signed with the checkpoint key
 * (Ed25519, ./keys) as a flattened JWS. Each is written three times: a row in `audit_checkpoints` (so every
 * instance's verify sees every instance's checkpoints), one JSON line in the server log (for a SIEM), and one line
 * appended to `audit-checkpoints.jsonl` in DATA_DIR. The last two are out of a database writer's reach: a log
 * truncated, emptied or re-chained after a checkpoint no longer matches it.
 */
import "server-only";
import { appendFile, readFile } from "node:fs/promises";
import path from "node:path";
import { FlattenedSign, flattenedVerify, type FlattenedJWS } from "jose";
import { z } from "zod";
import type { Database } from "@/lib/server/database";
import { resolveDataDir } from "@/lib/server/database/connection";
import { auditCheckpoints } from "@/lib/server/database/schema";
import { logger } from "@/lib/server/util/logger";
import type { AuditKeys } from "./keys";

const CHECKPOINT_FILE = "audit-checkpoints.jsonl";

const payloadSchema = z.object({
  v: z.literal(1),
  seq: z.number().int().min(0),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  keyed_from: z.number().int().min(1),
  at: z.string().datetime(),
  instance: z.string().max(128),
});

export type CheckpointPayload = z.infer<typeof payloadSchema>;

const jwsSchema = z.object({ protected: z.string(), payload: z.string(), signature: z.string() });
type CheckpointJws = z.infer<typeof jwsSchema>;

export interface Checkpoint extends CheckpointPayload {
  source: "database" | "file";
}

export function checkpointFile(dataDir: string | undefined): string {
  return path.join(resolveDataDir(dataDir), CHECKPOINT_FILE);
}

async function signCheckpoint(keys: AuditKeys, payload: CheckpointPayload): Promise<CheckpointJws> {
  const signed = await new FlattenedSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: "EdDSA", kid: keys.kid, typ: "audit-checkpoint" })
    .sign(keys.checkpointPrivateKey);
  return { protected: signed.protected!, payload: signed.payload, signature: signed.signature };
}

/** The payload when the signature holds under our key; null for anything else (forged, malformed, another key). */
async function openCheckpoint(keys: AuditKeys, jws: unknown): Promise<CheckpointPayload | null> {
  const parsed = jwsSchema.safeParse(jws);
  if (!parsed.success) return null;
  try {
    const { payload } = await flattenedVerify(parsed.data as FlattenedJWS, keys.checkpointPublicKey, {
      algorithms: ["EdDSA"],
    });
    const checked = payloadSchema.safeParse(JSON.parse(new TextDecoder().decode(payload)));
    return checked.success ? checked.data : null;
  } catch {
    return null;
  }
}

/**
 * Writes one checkpoint everywhere it goes, each place on its own: a DATA_DIR that is not writable must not keep
 * it from the database (other instances' verify), nor a database failure from the file. Throws when the database
 * failed (the next checkpoint tries again).
 */
export async function writeCheckpoint(
  db: Database,
  keys: AuditKeys,
  file: string,
  payload: CheckpointPayload,
): Promise<void> {
  const jws = await signCheckpoint(keys, payload);
  logger.info({ audit_checkpoint: { seq: payload.seq, at: payload.at, jws } }, "audit checkpoint");
  const row = {
    instance: payload.instance,
    seq: payload.seq,
    rowHash: payload.hash,
    at: new Date(payload.at),
    jws,
  };
  const [toFile, toDatabase] = await Promise.allSettled([
    appendFile(file, JSON.stringify(jws) + "\n", { mode: 0o600 }),
    db.insert(auditCheckpoints).values(row).onConflictDoNothing(),
  ]);
  if (toFile.status === "rejected") {
    logger.warn({ file, error: String(toFile.reason) }, "audit checkpoint not written to DATA_DIR");
  }
  if (toDatabase.status === "rejected") throw toDatabase.reason;
}

export interface LoadedCheckpoints {
  valid: Checkpoint[];
  /** Signed entries whose signature does not hold: someone wrote a checkpoint without the key. */
  forged: { source: Checkpoint["source"]; seq: number | null }[];
}

/** Every checkpoint of the database and of this instance's file. */
export async function loadCheckpoints(
  db: Database,
  keys: AuditKeys,
  file: string | undefined,
): Promise<LoadedCheckpoints> {
  const entries: { source: Checkpoint["source"]; jws: unknown; seq: number | null }[] = [];
  for (const row of await db.select().from(auditCheckpoints)) {
    entries.push({ source: "database", jws: row.jws, seq: row.seq });
  }
  const lines = file ? (await readOptional(file)).split("\n") : [];
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    try {
      entries.push({ source: "file", jws: JSON.parse(line), seq: null });
    } catch {
      // A torn last line (a crash mid-write) is no forgery; any other line that is not JSON is reported.
      if (index < lines.length - 1) entries.push({ source: "file", jws: null, seq: null });
    }
  });
  const loaded: LoadedCheckpoints = { valid: [], forged: [] };
  // The file repeats this instance's database rows: each signature is checked once.
  const seen = new Set<string>();
  for (const entry of entries) {
    const signature = (entry.jws as { signature?: unknown } | null)?.signature;
    if (typeof signature === "string") {
      if (seen.has(signature)) continue;
      seen.add(signature);
    }
    const payload = await openCheckpoint(keys, entry.jws);
    if (payload) loaded.valid.push({ ...payload, source: entry.source });
    else loaded.forged.push({ source: entry.source, seq: entry.seq });
  }
  return loaded;
}

async function readOptional(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}
