/**
 * The zod schemas of a certification run's shapes (docs/design.md §8) and of the certification routes' answers: the
 * OpenAPI document reads them, and certification-contract.ts and certification-api.ts infer their types from
 * them. Kept apart so that pages, which import those two modules' helpers, do not carry zod.
 */
import { z } from "zod";
import {
  OPERATIONS,
  environmentNameSchema,
  exchangeRecordSchema,
  isoTime,
  keyedObject,
} from "@/lib/shared/contracts";

/**
 * - `pass`: every check held.
 * - `fail`: at least one check did not hold.
 * - `observed`: the specification is silent; what the upstream did is recorded, not judged.
 * - `not_applicable`: the case could not run here; `reason` says why and what would make it applicable.
 */
const VERDICTS = ["pass", "fail", "observed", "not_applicable"] as const;
export const verdictSchema = z.enum(VERDICTS);

export const verdictCountsSchema = keyedObject(VERDICTS, z.number().int().nonnegative());

/** One thing a case checked: what the specification expects, what the upstream did, and whether they agree. */
export const checkSchema = z.object({
  name: z.string(),
  expected: z.string(),
  observed: z.string(),
  /** null for a recorded observation that is not judged (verdict `observed`). */
  passed: z.boolean().nullable(),
  /** Ids of the exchange records this check looked at. */
  exchange_ids: z.array(z.string()).optional(),
});

export const caseResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Sections of the specification this case proves, e.g. ["2.2", "4.1"]. */
  spec_sections: z.array(z.string()),
  verdict: verdictSchema,
  /** Why not applicable, or a one-line summary of what failed. */
  reason: z.string().optional(),
  checks: z.array(checkSchema),
  exchange_ids: z.array(z.string()),
  /** Ids the API operator can find in its own logs. */
  upstream_ids: z.object({
    transaction_ids: z.array(z.string()),
    external_ids: z.array(z.string()),
    /** X-Request-Id values sent. */
    x_request_ids: z.array(z.string()),
    /** meta.request_id values of token responses. */
    meta_request_ids: z.array(z.string()),
  }),
  /** Fingerprints (first 12 hex of SHA-256) of the tokens this case used or obtained. */
  token_fingerprints: z.array(z.string()),
  started_at: isoTime,
  finished_at: isoTime,
});

export const runStatusSchema = z.enum(["queued", "running", "done", "cancelled", "interrupted"]);

export const tokenRecordSchema = z.object({
  fingerprint: z.string(),
  client_id: z.string(),
  /** Why it was obtained: "session" (the run's token), or the case id that requested it. */
  purpose: z.string(),
  scope: z.string(),
  expires_in: z.number(),
  issued_at: isoTime,
});

export const runEnvironmentSchema = z.object({
  name: environmentNameSchema,
  auth_url: z.string(),
  base_url: z.string(),
  /**
   * What answered the run's calls: the real address, or "in-process embedded sandbox" — the embedded
   * sandbox is called without a network, so nothing need be serving `auth_url` (the CLI has no server).
   */
  served_by: z.string().optional(),
});

/** A case waiting on purpose (AUTH-03 waits for a token to expire): what for, and until when. */
export const runWaitSchema = z.object({
  case_id: z.string(),
  what: z.literal("token_expiry"),
  until: isoTime,
});

/** What a route or the CLI reads while a run is under way, and what the bundle is built from. */
export const runStateSchema = z.object({
  id: z.string(),
  status: runStatusSchema,
  environment: runEnvironmentSchema,
  client_id: z.string(),
  /** Who ran it, for people (the signed-in user's name; the CLI's `local:<user>`). */
  operator: z.string(),
  /** The signed-in user's id (`local` in AUTH_MODE=none), when a console route started the run. */
  operator_id: z.string().optional(),
  allow_production_gift: z.boolean(),
  case_ids: z.array(z.string()),
  total: z.number().int(),
  done: z.number().int(),
  started_at: isoTime,
  finished_at: isoTime.optional(),
  results: z.array(caseResultSchema),
  exchanges: z.array(exchangeRecordSchema),
  tokens: z.array(tokenRecordSchema),
  /** Set while a case waits, so the run's page says so rather than seeming stuck. */
  waiting: runWaitSchema.optional(),
});

/** A run in the list of runs: no checks, no exchanges. */
export const runSummarySchema = z.object({
  id: z.string(),
  status: runStatusSchema,
  environment: environmentNameSchema,
  client_id: z.string(),
  operator: z.string(),
  operator_id: z.string().optional(),
  allow_production_gift: z.boolean(),
  total: z.number().int(),
  done: z.number().int(),
  started_at: isoTime,
  finished_at: isoTime.optional(),
  summary: verdictCountsSchema,
  /** Every finished case's verdict, in run order. */
  verdicts: z.array(z.object({ id: z.string(), verdict: verdictSchema })),
});

export const startRunResultSchema = z.object({ id: z.string() });

/** A configured environment, and whether this server can certify it (else why not, in a sentence). */
export const certifiableEnvironmentSchema = z.object({
  name: environmentNameSchema,
  certifiable: z.boolean(),
  reason: z.string().optional(),
});

export const runListSchema = z.object({
  runs: z.array(runSummarySchema),
  /** What the start form offers: every configured environment, the ones that cannot be run with the reason. */
  environments: z.array(certifiableEnvironmentSchema),
});

/** One exchange of a run, as the run view lists it (the full records are in the evidence bundle). */
export const exchangeIndexEntrySchema = z.object({
  id: z.string(),
  operation: z.enum(OPERATIONS),
  status: z.number().int(),
  request_id: z.string().optional(),
});

/** GET /api/certification/runs/{id}: progress and per-case results, without the exchange bodies. */
export const runViewSchema = runStateSchema.omit({ exchanges: true }).extend({
  summary: verdictCountsSchema,
  exchanges: z.array(exchangeIndexEntrySchema),
  /** Whether the signed bundle can be downloaded (the run has ended). */
  evidence_ready: z.boolean(),
});

export const evidenceSignerSchema = z.object({
  kind: z.enum(["this_console", "trusted", "unknown"]),
  thumbprint: z.string(),
  /** The trusted key's name in EVIDENCE_TRUSTED_KEYS, when it has one. */
  name: z.string().optional(),
});

/** `POST /api/certification/verify`: what the bundle's manifest says is read as text, not trusted as typed. */
export const verifyResultSchema = z.object({
  ok: z.boolean(),
  problems: z.array(z.string()),
  /** What was checked, for people. */
  checked: z.array(z.string()),
  /** The bundle was signed with this console's key (GET /api/certification/public-key). */
  signed_by_this_console: z.boolean(),
  /**
   * Who signed an intact bundle, by its key's RFC 7638 thumbprint: this console, a key EVIDENCE_TRUSTED_KEYS
   * names, or an unknown key (anyone can sign an edited bundle with a key of their own). Null when not intact.
   */
  signer: evidenceSignerSchema.nullable(),
  run: z
    .object({
      id: z.string().optional(),
      environment: z.string().optional(),
      status: z.string().optional(),
      operator: z.string().optional(),
      started_at: z.string().optional(),
      finished_at: z.string().nullable().optional(),
      summary: z.partialRecord(verdictSchema, z.number()).optional(),
    })
    .optional(),
});

/** `GET /api/certification/public-key`: the Ed25519 public JWK (lib/server/certification/signing-key.ts). */
export const publicJwkSchema = z.object({
  kty: z.literal("OKP"),
  crv: z.literal("Ed25519"),
  x: z.string(),
  alg: z.literal("EdDSA"),
  use: z.literal("sig"),
  kid: z.string(),
});
export type PublicJwk = z.infer<typeof publicJwkSchema>;
