/**
 * zod schemas of the console's response bodies (DESIGN.md §4). The request bodies are lib/shared/contracts.ts's,
 * which the routes validate with; these describe what the routes answer, each checked by TypeScript against
 * the interface the route builds (`satisfies z.ZodType<…>`), so the OpenAPI document cannot drift from the code.
 */
import type { JWK } from "jose";
import { z } from "zod";
import {
  OPERATIONS,
  environmentNameSchema,
  exchangeRecordSchema,
  headersSchema as headers,
  isoTime,
} from "@/lib/shared/contracts";
export {
  clientCertificationListSchema,
  clientCertificationViewSchema,
  startedClientCertificationSchema,
} from "@/lib/shared/client-certification-contract";
import { PURSES, type Purse } from "@/lib/shared/purses";
import type {
  RunListResponse,
  RunView,
  StartRunResponse,
  VerifyResponse,
} from "@/lib/shared/certification-api";
import type { RunSummary } from "@/lib/shared/certification-contract";
import { RESULT_FILTERS } from "@/lib/shared/support-contract";
export {
  supportBatchListSchema,
  supportBatchProgressSchema,
  supportBatchResultsSchema,
  supportLookupResultSchema,
  supportTransactionLookupSchema,
} from "@/lib/shared/support-contract";

const environmentName = environmentNameSchema;

export {
  errorBodySchema,
  exchangeRecordSchema,
  inquiryAnswerSchema,
  sessionInfoSchema,
  tokenResultSchema,
} from "@/lib/shared/contracts";

export {
  adminSessionListSchema,
  adminSessionsEndedSchema,
  adminSuspendedSchema,
  adminSuspensionListSchema,
} from "@/lib/shared/admin-contract";
export { auditUserListSchema } from "@/lib/shared/audit-contract";
export const healthSchema = z.object({ status: z.literal("ok") });
export const readySchema = z.object({ status: z.literal("ready"), database: z.enum(["pglite", "postgres"]) });

// What signing out answers: the session has ended and where the browser goes next.
export const logoutResultSchema = z.object({ signed_out: z.literal(true), redirect: z.string() });

export const auditRowSchema = z.object({
  seq: z.number().int().positive(),
  at: isoTime,
  user_id: z.string().nullable(),
  roles: z.array(z.string()),
  client_address: z.string().nullable(),
  event: z.string(),
  environment: z.string().nullable(),
  operation: z.string().nullable(),
  card: z.string().nullable(),
  card_hash: z.string().nullable(),
  upstream_status: z.number().int().nullable(),
  request_id: z.string().nullable(),
  outcome: z.enum(["success", "failure"]),
  reason: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});

export const auditPageSchema = z.object({
  rows: z.array(auditRowSchema),
  next_cursor: z.string().nullable(),
});

/** What a verification checked: signed checkpoints of the chain head, the keyed chain's first row, up to when. */
const auditVerifyCoverage = {
  checkpoints: z.number().int(),
  last_checkpoint: z.object({ seq: z.number().int(), at: isoTime, instance: z.string() }).nullable(),
  keyed_from: z.number().int(),
  through: isoTime.nullable(),
  verified_at: isoTime,
  walked_from: z.number().int(),
  started_at_checkpoint: z.object({ seq: z.number().int(), at: isoTime, instance: z.string() }).nullable(),
};

export const auditVerifySchema = z.union([
  z.object({ ok: z.literal(true), rows: z.number().int(), ...auditVerifyCoverage }),
  z.object({
    ok: z.literal(false),
    rows: z.number().int(),
    first_bad_row: z.number().int(),
    reason: z.string(),
    ...auditVerifyCoverage,
  }),
]);

/** The query of `GET /api/audit` and `/api/audit/export.csv` as the contract names it. */
export const auditFilterQuerySchema = z.object({
  user: z.string().optional(),
  event: z.string().optional(),
  card: z.string().optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
  cursor: z.string().optional(),
  limit: z.number().int().min(1).max(500).optional(),
});

// Certification (DESIGN.md §8): the answers of /api/certification/*.

/** `GET /api/certification/public-key`: the Ed25519 public JWK (lib/server/certification/signing-key.ts). */
export const publicJwkSchema = z.object({
  kty: z.literal("OKP"),
  crv: z.literal("Ed25519"),
  x: z.string(),
  alg: z.literal("EdDSA"),
  use: z.literal("sig"),
  kid: z.string(),
}) satisfies z.ZodType<JWK>;

/**
 * An object with exactly these keys. Not `z.record(z.enum(keys), …)`: its JSON Schema requires keys it never
 * declares as properties, which strict validators refuse.
 */
function keyedObject<K extends string, S extends z.ZodType>(keys: readonly K[], value: S) {
  return z.object(Object.fromEntries(keys.map((key) => [key, value])) as Record<K, S>);
}

const VERDICTS = ["pass", "fail", "observed", "not_applicable"] as const;
const verdictSchema = z.enum(VERDICTS);
const verdictCountsSchema = keyedObject(VERDICTS, z.number().int().nonnegative());
const runStatusSchema = z.enum(["queued", "running", "done", "cancelled", "interrupted"]);

export const startRunResultSchema = z.object({ id: z.string() }) satisfies z.ZodType<StartRunResponse>;

const runSummarySchema = z.object({
  id: z.string(),
  status: runStatusSchema,
  environment: environmentName,
  client_id: z.string(),
  operator: z.string(),
  operator_id: z.string().optional(),
  allow_production_gift: z.boolean(),
  total: z.number().int(),
  done: z.number().int(),
  started_at: isoTime,
  finished_at: isoTime.optional(),
  summary: verdictCountsSchema,
  verdicts: z.array(z.object({ id: z.string(), verdict: verdictSchema })),
}) satisfies z.ZodType<RunSummary>;

export const runListSchema = z.object({
  runs: z.array(runSummarySchema),
  environments: z.array(
    z.object({ name: environmentName, certifiable: z.boolean(), reason: z.string().optional() }),
  ),
}) satisfies z.ZodType<RunListResponse>;

const caseResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  spec_sections: z.array(z.string()),
  verdict: verdictSchema,
  reason: z.string().optional(),
  checks: z.array(
    z.object({
      name: z.string(),
      expected: z.string(),
      observed: z.string(),
      passed: z.boolean().nullable(),
      exchange_ids: z.array(z.string()).optional(),
    }),
  ),
  exchange_ids: z.array(z.string()),
  upstream_ids: z.object({
    transaction_ids: z.array(z.string()),
    external_ids: z.array(z.string()),
    x_request_ids: z.array(z.string()),
    meta_request_ids: z.array(z.string()),
  }),
  token_fingerprints: z.array(z.string()),
  started_at: isoTime,
  finished_at: isoTime,
});

export const runViewSchema = z.object({
  id: z.string(),
  status: runStatusSchema,
  environment: z.object({
    name: environmentName,
    auth_url: z.string(),
    base_url: z.string(),
    served_by: z.string().optional(),
  }),
  client_id: z.string(),
  operator: z.string(),
  operator_id: z.string().optional(),
  allow_production_gift: z.boolean(),
  case_ids: z.array(z.string()),
  total: z.number().int(),
  done: z.number().int(),
  started_at: isoTime,
  finished_at: isoTime.optional(),
  results: z.array(caseResultSchema),
  tokens: z.array(
    z.object({
      fingerprint: z.string(),
      client_id: z.string(),
      purpose: z.string(),
      scope: z.string(),
      expires_in: z.number(),
      issued_at: isoTime,
    }),
  ),
  summary: verdictCountsSchema,
  exchanges: z.array(
    z.object({
      id: z.string(),
      operation: z.enum(OPERATIONS),
      status: z.number().int(),
      request_id: z.string().optional(),
    }),
  ),
  evidence_ready: z.boolean(),
}) satisfies z.ZodType<RunView>;

/** `POST /api/certification/verify`: what the bundle's manifest says is read as text, not trusted as typed. */
export const verifyResultSchema = z.object({
  ok: z.boolean(),
  problems: z.array(z.string()),
  checked: z.array(z.string()),
  signed_by_this_console: z.boolean(),
  signer: z
    .object({
      kind: z.enum(["this_console", "trusted", "unknown"]),
      thumbprint: z.string(),
      name: z.string().optional(),
    })
    .nullable(),
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
}) satisfies z.ZodType<VerifyResponse>;

// Support desk (DESIGN.md §9): the answers of /api/support/*. Card numbers appear as last 4 only.

/**
 * The query of `GET /api/support/batches/{id}/results`, as lib/server/support/route-helpers.ts `resultsPageParams`
 * parses it (limit up to MAX_RESULTS_PAGE of lib/server/support/batches.ts, a server-only module).
 */
export const supportResultsQuerySchema = z.object({
  from: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(1000).default(100),
  show: z.enum(RESULT_FILTERS).optional(),
  /** 1 when the page is saved as a file (an attachment, and a `support_batch_results_downloaded` audit row). */
  download: z.enum(["0", "1"]).default("0"),
});

// Team runs (DESIGN.md §4 `GET /api/runs`): inquiries kept on the server for the team.

const teamRunSummarySchema = z.object({
  id: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  environment: environmentName,
  operation: z.enum(["gift_balance_inquiry", "balance_inquiry"]),
  request_id: z.string().nullable(),
  card: z.string().nullable(),
  status: z.number().int(),
  started_at: isoTime,
});

export const teamRunListSchema = z.object({
  runs: z.array(teamRunSummarySchema),
  retention_days: z.number().int(),
});

export const teamRunSchema = teamRunSummarySchema.extend({ exchange: exchangeRecordSchema });

export const adminLiftedSchema = z.object({ lifted: z.string() });
