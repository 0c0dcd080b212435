/**
 * The certification variables (CERTIFICATION_PROFILE, CERTIFICATION_SPEC_PATH, SOURCE_COMMIT,
 * EVIDENCE_TRUSTED_KEYS, CERTIFICATION_RUN_STALE_SECONDS) and the profile
 * file's form. CERTIFICATION_PROFILE is checked at start (a file that cannot be read or is not a profile stops
 * the server with a message naming the variable) and read again when a run starts, so its cards can change
 * without a restart. The profile names its secrets by environment variable; those are read when a run starts.
 */
import "server-only";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { blankToUndefined, integer, optionalText } from "@/lib/shared/env-values";

const cardNumber = z.string().regex(/^\d{12,19}$/, "must be 12 to 19 digits");
const clientRef = z
  .object({ client_id: z.string().min(1), client_secret_env: z.string().regex(/^[A-Z_][A-Z0-9_]*$/) })
  .strict();
export type ProfileClientRef = z.infer<typeof clientRef>;

/** The JSON profile file (`--profile`, CERTIFICATION_PROFILE): secrets by environment variable name. */
export const profileFileSchema = z
  .object({
    primary: clientRef.optional(),
    short_lived: clientRef.optional(),
    without_scope: clientRef.optional(),
    cards: z.object({ active: cardNumber, declined: cardNumber.optional() }).strict(),
    location_id: z.string().min(1).max(64).default("cert-location-1"),
    transaction_lookup: z.boolean().default(false),
  })
  .strict();
export type ProfileFile = z.infer<typeof profileFileSchema>;

/** A profile file that cannot be used; the message says why, without the file's name. */
export class ProfileFileError extends Error {
  override name = "ProfileFileError";
}

export function readProfileFile(file: string): ProfileFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ProfileFileError(
      code ? `cannot be read (${code})` : `is not JSON (${error instanceof Error ? error.message : error})`,
    );
  }
  const parsed = profileFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProfileFileError(
      `is not a profile: ${issue?.path.join(".") || "(file)"} ${issue?.message ?? "is invalid"}`,
    );
  }
  return parsed.data;
}

const profilePath = z.preprocess(
  blankToUndefined,
  z
    .string()
    .superRefine((file, context) => {
      try {
        readProfileFile(file);
      } catch (error) {
        if (!(error instanceof ProfileFileError)) throw error;
        context.addIssue({ code: "custom", message: `names a file that ${error.message}` });
      }
    })
    .optional(),
);

/** A key's RFC 7638 thumbprint (SHA-256, base64url): the `kid` of GET /api/certification/public-key. */
const THUMBPRINT = /^[A-Za-z0-9_-]{43}$/;

/** An evidence signing key the operator trusts besides this console's own, by thumbprint. */
export interface TrustedEvidenceKey {
  thumbprint: string;
  /** Shown on the verify page ("signed by trusted key <name>"); absent when only the thumbprint was given. */
  name?: string;
}

const TRUSTED_KEYS_FORMAT =
  "must be comma-separated key thumbprints (the kid of another console's GET /api/certification/public-key), " +
  "each optionally named: name:thumbprint";

function trustedKey(entry: string): TrustedEvidenceKey | string {
  const separator = entry.lastIndexOf(":");
  const name = separator < 0 ? undefined : entry.slice(0, separator).trim();
  const thumbprint = entry.slice(separator + 1).trim();
  if (!THUMBPRINT.test(thumbprint)) return `${TRUSTED_KEYS_FORMAT} (got ${JSON.stringify(entry)})`;
  if (name === undefined) return { thumbprint };
  if (!/^[\w .@()-]{1,64}$/.test(name)) {
    return `names a key ${JSON.stringify(name)}: a name is 1 to 64 letters, digits, spaces or . _ - @ ( )`;
  }
  return { thumbprint, name };
}

/** `partner-console:NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs,…` → the trusted keys. */
const trustedKeysSchema = z.preprocess(
  blankToUndefined,
  z
    .string()
    .transform((text, context) => {
      const keys: TrustedEvidenceKey[] = [];
      for (const entry of text.split(",").map((part) => part.trim())) {
        if (!entry) continue;
        const key = trustedKey(entry);
        if (typeof key === "string") {
          context.addIssue({ code: "custom", message: key });
          return z.NEVER;
        }
        if (!keys.some((known) => known.thumbprint === key.thumbprint)) keys.push(key);
      }
      return keys;
    })
    .optional(),
);

export const certificationEnvShape = {
  CERTIFICATION_PROFILE: profilePath,
  EVIDENCE_TRUSTED_KEYS: trustedKeysSchema,
  CERTIFICATION_SPEC_PATH: optionalText,
  SOURCE_COMMIT: optionalText,
  /** An older name of SOURCE_COMMIT, still read. */
  GIT_COMMIT: optionalText,
  // Seconds; short values are for tests of an instance that dies mid-run, a deployment keeps the minute.
  CERTIFICATION_RUN_STALE_SECONDS: integer(3, 3600, 60),
};

export interface CertificationSettings {
  /** CERTIFICATION_PROFILE: the test data of runs on sandbox and production, read again at each run. */
  profilePath: string | undefined;
  /** CERTIFICATION_SPEC_PATH: the specification whose hash a bundle records. */
  specPath: string | undefined;
  /** SOURCE_COMMIT (or GIT_COMMIT): the commit a bundle names; else `git rev-parse HEAD`. */
  sourceCommit: string | undefined;
  /** EVIDENCE_TRUSTED_KEYS: other keys whose bundles the verify page calls trusted. */
  trustedKeys: TrustedEvidenceKey[];
  /**
   * CERTIFICATION_RUN_STALE_SECONDS: a running run whose owner's heartbeat is older than this is marked
   * interrupted (its process died); the owner beats six times as often.
   */
  runStaleSeconds: number;
}

export function certificationSettings(env: {
  CERTIFICATION_PROFILE?: string;
  CERTIFICATION_SPEC_PATH?: string;
  SOURCE_COMMIT?: string;
  GIT_COMMIT?: string;
  EVIDENCE_TRUSTED_KEYS?: TrustedEvidenceKey[];
  CERTIFICATION_RUN_STALE_SECONDS?: number;
}): CertificationSettings {
  return {
    profilePath: env.CERTIFICATION_PROFILE,
    specPath: env.CERTIFICATION_SPEC_PATH,
    sourceCommit: env.SOURCE_COMMIT ?? env.GIT_COMMIT,
    trustedKeys: env.EVIDENCE_TRUSTED_KEYS ?? [],
    runStaleSeconds: env.CERTIFICATION_RUN_STALE_SECONDS ?? 60,
  };
}
