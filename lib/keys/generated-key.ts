/**
 * Keys that a team sets in the environment (AUDIT_HMAC_KEY, EVIDENCE_SIGNING_KEY) and that a single console
 * may generate for itself: created once in `<DATA_DIR>/keys/<name>` (mode 0600), then reused on every start,
 * with a warning, because instances sharing one PostgreSQL must share the key (set it in the environment).
 */
import "server-only";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { logger } from "@/lib/logger";
import { resolveDataDir } from "@/lib/db/connection";

export interface KeySource {
  /** The environment variable's name, for the warning (e.g. `AUDIT_HMAC_KEY`). */
  name: string;
  /** Its value; when set, it is returned as is and nothing is written. */
  value?: string;
  dataDir?: string;
  generate: () => string;
}

export const generateHmacKey = (): string => randomBytes(32).toString("base64url");

export const generateEd25519Pem = (): string =>
  generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();

export function loadOrCreateKey({ name, value, dataDir, generate }: KeySource): string {
  if (value && value.length > 0) return value;
  const folder = path.join(resolveDataDir(dataDir), "keys");
  const file = path.join(folder, name.toLowerCase());
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  // Written whole to a private file, then linked into place: of several processes starting together exactly one
  // link succeeds, and nobody ever reads a half-written key.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(draft, generate(), { flag: "wx", mode: 0o600 });
  try {
    linkSync(draft, file);
    logger.warn(
      { key: name, file },
      `${name} is not set: generated one and kept it in DATA_DIR. Instances that share a database must share this key: set ${name}.`,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    logger.warn({ key: name, file }, `${name} is not set: using the one generated earlier in DATA_DIR.`);
  } finally {
    unlinkSync(draft);
  }
  const stored = readFileSync(file, "utf8");
  if (stored.length === 0) throw new Error(`${file} is empty; remove it or set ${name}.`);
  return stored;
}
