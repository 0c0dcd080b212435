/**
 * Keys that a team sets in the environment (AUDIT_HMAC_KEY, EVIDENCE_SIGNING_KEY) and that a single console
 * may generate for itself: created once in DATA_DIR (mode 0600), then reused on every start, with a warning,
 * because instances sharing one PostgreSQL must share the key (set it in the environment). The one place that
 * generates and stores a key; what a key is (HMAC secret, Ed25519 PEM) is its caller's business.
 */
import "server-only";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { logger } from "@/lib/server/util/logger";
import { resolveDataDir } from "./data-dir";

export interface KeySource {
  /** The environment variable's name, for the warning (e.g. `AUDIT_HMAC_KEY`). */
  name: string;
  /** Its value; when set, it is returned as is and nothing is written. */
  value?: string;
  dataDir?: string;
  generate: () => string;
  /** The file, relative to DATA_DIR; `keys/<name in lower case>` by default. */
  file?: string;
  /** Says that the key was not set (generated now into `file`, or `reused` from it); the server log by default. */
  warn?: (message: string, reused: boolean, file: string) => void;
}

export interface LoadedKey {
  value: string;
  source: "environment" | "generated" | "data_dir";
  /** The file in DATA_DIR, unless the key came from the environment. */
  file?: string;
}

/**
 * How a console announces a key it generated: a warning where instances share a PostgreSQL (DATABASE_URL), since
 * they must share the key; on a single console with its embedded database nothing is wrong, so it is information.
 */
export const generatedKeyLevel = (databaseUrl: string | undefined): "warn" | "info" =>
  databaseUrl ? "warn" : "info";

export const generateHmacKey = (): string => randomBytes(32).toString("base64url");

export const generateEd25519Pem = (): string =>
  generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();

export function loadOrCreateKey(source: KeySource): string {
  return loadKey(source).value;
}

export function loadKey({ name, value, dataDir, generate, file: relative, warn }: KeySource): LoadedKey {
  if (value && value.length > 0) return { value, source: "environment" };
  const file = path.join(resolveDataDir(dataDir), relative ?? path.join("keys", name.toLowerCase()));
  const tell = warn ?? ((message: string) => logger.warn({ key: name, file }, message));
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Written whole to a private file, then linked into place: of several processes starting together exactly one
  // link succeeds, and nobody ever reads a half-written key.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(draft, generate(), { flag: "wx", mode: 0o600 });
  let source: LoadedKey["source"] = "generated";
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    source = "data_dir";
  } finally {
    unlinkSync(draft);
  }
  const stored = readFileSync(file, "utf8");
  if (stored.length === 0) throw new Error(`${file} is empty; remove it or set ${name}.`);
  if (source === "generated") {
    tell(
      `${name} is not set: generated one and kept it in DATA_DIR. Instances that share a database must share ` +
        `this key: set ${name}.`,
      false,
      file,
    );
  } else {
    tell(`${name} is not set: using the one generated earlier in DATA_DIR.`, true, file);
  }
  return { value: stored, source, file };
}
