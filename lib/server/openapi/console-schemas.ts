/**
 * zod schemas of the console's response bodies (DESIGN.md §4). The request bodies are lib/shared/contracts.ts's,
 * which the routes validate with; these describe what the routes answer, each checked by TypeScript against
 * the interface the route builds (`satisfies z.ZodType<…>`), so the OpenAPI document cannot drift from the code.
 */
import type { JWK } from "jose";
import { z } from "zod";
import {
  ENVIRONMENTS,
  OPERATIONS,
  type ErrorBody,
  type ExchangeBodySummary,
  type ExchangeRecord,
  type InquiryAnswer,
  type SessionInfo,
  type TokenEvent,
  type TokenMetadata,
  type TokenResult,
} from "@/lib/shared/contracts";
import {
  CLIENT_CHECK_IDS,
  CLIENT_STEP_IDS,
  type ClientCallRecord,
  type ClientCertificationSummary,
  type ClientCertificationView,
  type ClientCheckResult,
  type ClientStepState,
  type StartedClientCertification,
} from "@/lib/shared/client-certification-contract";
import { PURSES, type Purse } from "@/lib/shared/purses";
import type { AuditUserList } from "@/lib/shared/audit-contract";
import type {
  AdminSessionList,
  AdminSessionsEnded,
  AdminSuspended,
  AdminSuspension,
  AdminSuspensionList,
} from "@/lib/shared/admin-contract";
import type {
  RunListResponse,
  RunView,
  StartRunResponse,
  VerifyResponse,
} from "@/lib/shared/certification-api";
import type { RunSummary } from "@/lib/shared/certification-contract";
import type {
  MonitorDetailResponse,
  MonitorListResponse,
  MonitorRunResponse,
  MonitorView,
} from "@/lib/shared/monitors-api";
import {
  BATCH_STATUSES,
  LOOKUP_OUTCOMES,
  RESULT_FILTERS,
  type SupportBatchList,
  type SupportBatchProgress,
  type SupportBatchResults,
  type SupportLookupResult,
  type SupportTransactionLookup,
} from "@/lib/shared/support-contract";

const isoTime = z.iso.datetime({ offset: true });
const headers = z.record(z.string(), z.string());
const environmentName = z.enum(ENVIRONMENTS);

export const errorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
}) satisfies z.ZodType<ErrorBody>;

export const tokenMetadataSchema = z.object({
  token_type: z.string(),
  scopes: z.array(z.string()),
  expires_in: z.number(),
  issued_at: isoTime,
  expires_at: isoTime,
  fingerprint: z.string().regex(/^[0-9a-f]{12}$/),
  header: z.record(z.string(), z.unknown()),
  claims: z.record(z.string(), z.unknown()),
  meta: z.record(z.string(), z.unknown()).nullable(),
  jsonapi: z.record(z.string(), z.unknown()).nullable(),
}) satisfies z.ZodType<TokenMetadata>;

export const sessionInfoSchema = z.object({
  environment: environmentName,
  environments: z.array(z.object({ name: environmentName, base_url: z.string(), auth_url: z.string() })),
  credentials: z.object({
    source: z.enum(["server", "session", "none"]),
    client_id: z.string().nullable(),
    profile: z.literal("demo").optional(),
  }),
  token: tokenMetadataSchema.nullable(),
}) satisfies z.ZodType<SessionInfo>;

const tokenEventSchema = z.object({
  type: z.enum(["acquired", "renewed_before_expiry", "renewed_after_401"]),
  at: isoTime,
  fingerprint: z.string(),
  detail: z.string().optional(),
}) satisfies z.ZodType<TokenEvent>;

const nullableString = z.string().nullable();
const transactionSummaryFields = {
  transaction_id: nullableString,
  external_id: nullableString,
  card_number: nullableString,
  response_status: nullableString,
  response_code: nullableString,
  response_message: nullableString,
  balance: nullableString,
};

/** The typed reading of a successful answer's body that the server attaches to a record (lib/shared/exchange-summary). */
const exchangeBodySummarySchema = z.discriminatedUnion("operation", [
  z.object({
    operation: z.literal("token"),
    token_type: nullableString,
    scopes: z.array(z.string()),
    expires_in: z.number().nullable(),
  }),
  z.object({ operation: z.literal("gift_balance_inquiry"), ...transactionSummaryFields }),
  z.object({ operation: z.literal("transaction_lookup"), found: z.boolean(), ...transactionSummaryFields }),
  z.object({
    operation: z.literal("balance_inquiry"),
    card_number: nullableString,
    balances: z.record(z.string(), z.string()).nullable(),
  }),
]) satisfies z.ZodType<ExchangeBodySummary>;

export const exchangeRecordSchema = z.object({
  id: z.string(),
  operation: z.enum(OPERATIONS),
  environment: environmentName,
  started_at: isoTime,
  duration_ms: z.number().nonnegative(),
  request_id: z.string().optional(),
  request: z.object({ method: z.string(), url: z.string(), headers, body: z.unknown() }),
  response: z.object({
    status: z.number().int(),
    headers,
    body: z.unknown(),
    body_is_text: z.boolean().optional(),
    schema_issues: z.array(z.string()).optional(),
  }),
  token_events: z.array(tokenEventSchema),
  timings: z
    .object({
      total_ms: z.number().nonnegative(),
      token_ms: z.number().nonnegative(),
      upstream_ms: z.number().nonnegative(),
      retried_ms: z.number().nonnegative().optional(),
    })
    .optional(),
  summary: exchangeBodySummarySchema.optional(),
}) satisfies z.ZodType<ExchangeRecord>;

/** An inquiry's answer: the exchange record, and the session as GET /api/session would now answer it. */
export const inquiryAnswerSchema = exchangeRecordSchema.extend({
  session: sessionInfoSchema.optional(),
}) satisfies z.ZodType<InquiryAnswer>;

export const tokenResultSchema = z.object({
  token: tokenMetadataSchema.nullable(),
  exchange: exchangeRecordSchema,
}) satisfies z.ZodType<TokenResult>;

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

const balancesSchema = keyedObject<Purse, z.ZodString>(PURSES, z.string()).nullable();
const lookupOutcomeSchema = z.enum(LOOKUP_OUTCOMES);

export const supportLookupResultSchema = z.object({
  card: z.object({ last4: z.string().regex(/^\d{4}$/), masked: z.string() }),
  environment: environmentName,
  outcome: lookupOutcomeSchema,
  message: z.string(),
  balances: balancesSchema,
  upstream_status: z.number().int().nullable(),
  retry_after_seconds: z.number().nonnegative().nullable(),
  looked_up_at: isoTime,
  duration_ms: z.number().nonnegative(),
}) satisfies z.ZodType<SupportLookupResult>;

export const supportBatchProgressSchema = z.object({
  id: z.uuid(),
  status: z.enum(BATCH_STATUSES),
  environment: environmentName,
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  found: z.number().int(),
  not_found: z.number().int(),
  errors: z.number().int(),
  in_flight: z.number().int(),
  rate: z.number().nonnegative().nullable(),
  eta_seconds: z.number().nonnegative().nullable(),
  reason: z.string().nullable(),
  bad_lines: z.array(z.object({ line: z.number().int(), message: z.string() })),
  bad_line_count: z.number().int(),
  created_at: isoTime,
  started_at: isoTime.nullable(),
  finished_at: isoTime.nullable(),
  expires_at: isoTime,
}) satisfies z.ZodType<SupportBatchProgress>;

export const supportBatchListSchema = z.object({
  batches: z.array(supportBatchProgressSchema.omit({ bad_lines: true }).extend({ user_id: z.string() })),
}) satisfies z.ZodType<SupportBatchList>;

export const supportTransactionLookupSchema = z.object({
  request_id: z.string(),
  environment: environmentName,
  outcome: z.enum(["found", "not_found", "upstream_error"]),
  upstream_status: z.number().int(),
  looked_up_at: isoTime,
  transaction: z
    .object({
      transaction_id: z.string().nullable(),
      time: z.string().nullable(),
      card_last4: z.string().nullable(),
      response_status: z.string().nullable(),
      response_code: z.string().nullable(),
      response_message: z.string().nullable(),
      gift_balance: z.string().nullable(),
    })
    .nullable(),
}) satisfies z.ZodType<SupportTransactionLookup>;

export const supportBatchResultsSchema = z.object({
  rows: z.array(
    z.object({
      position: z.number().int().nonnegative(),
      line: z.number().int(),
      last4: z.string(),
      card_hash: z.string(),
      state: z.enum(["pending", "done", "failed", "cancelled"]),
      outcome: lookupOutcomeSchema.nullable(),
      balances: balancesSchema,
      error: z.string().nullable(),
    }),
  ),
  next_position: z.number().int().nonnegative().nullable(),
}) satisfies z.ZodType<SupportBatchResults>;

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

// Integration certification (DESIGN.md §11): the user's own application, judged from its traffic.

const clientStepStateSchema = z.object({
  id: z.enum(CLIENT_STEP_IDS),
  title: z.string(),
  instructions: z.string(),
  status: z.enum(["pending", "armed", "ended"]),
  armed_at: isoTime.optional(),
  ended_at: isoTime.optional(),
}) satisfies z.ZodType<ClientStepState>;

const clientVerdictSchema = z.enum(["pass", "fail", "not_observed"]);

const clientCheckResultSchema = z.object({
  id: z.enum(CLIENT_CHECK_IDS),
  title: z.string(),
  spec: z.string(),
  verdict: clientVerdictSchema,
  expected: z.string(),
  observed: z.string(),
  exchange_ids: z.array(z.string()),
}) satisfies z.ZodType<ClientCheckResult>;

const clientCallSchema = z.object({
  id: z.string(),
  step: z.enum(CLIENT_STEP_IDS).nullable(),
  started_at: isoTime,
  duration_ms: z.number(),
  operation: z.string().nullable(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  request_id: z.string().nullable(),
  behaviour: z.string().nullable(),
  request: z.object({ method: z.string(), url: z.string(), headers, body: z.unknown() }),
  response: z.object({ status: z.number().int(), headers, body: z.unknown() }),
  seq: z.number().int().optional(),
  truncated: z.array(z.string()).optional(),
}) satisfies z.ZodType<ClientCallRecord>;

const clientCertificationStatusSchema = z.enum(["waiting", "running", "done", "expired"]);

export const clientCertificationViewSchema = z.object({
  id: z.string(),
  status: clientCertificationStatusSchema,
  environment: z.literal("embedded"),
  client_id: z.string(),
  auth_url: z.string(),
  base_url: z.string(),
  operator: z.string(),
  started_at: isoTime,
  expires_at: isoTime,
  finished_at: isoTime.nullable(),
  current_step: z.enum(CLIENT_STEP_IDS).nullable(),
  steps: z.array(clientStepStateSchema),
  checks: z.array(clientCheckResultSchema),
  exchanges: z.array(clientCallSchema),
  calls: z.object({
    kept: z.number().int(),
    dropped: z.number().int(),
    max_kept: z.number().int(),
    refused_token_requests: z.number().int(),
    last_refused_at: isoTime.nullable(),
  }),
}) satisfies z.ZodType<ClientCertificationView>;

export const startedClientCertificationSchema = clientCertificationViewSchema.extend({
  client_secret: z.string(),
}) satisfies z.ZodType<StartedClientCertification>;

export const clientCertificationListSchema = z.object({
  certifications: z.array(
    z.object({
      id: z.string(),
      status: clientCertificationStatusSchema,
      client_id: z.string(),
      operator: z.string(),
      started_at: isoTime,
      finished_at: isoTime.nullable(),
      verdicts: z.array(z.object({ id: z.enum(CLIENT_CHECK_IDS), verdict: clientVerdictSchema })),
    }) satisfies z.ZodType<ClientCertificationSummary>,
  ),
});
export const adminSessionListSchema = z.object({
  sessions: z.array(
    z.object({
      id: z.string(),
      user_id: z.string(),
      roles: z.array(z.string()),
      signed_in_at: isoTime,
      signed_in_from: z.string().nullable(),
      last_seen_at: isoTime,
      expires_at: isoTime,
    }),
  ),
}) satisfies z.ZodType<AdminSessionList>;

export const adminSessionsEndedSchema = z.object({
  ended: z.number().int().nonnegative(),
}) satisfies z.ZodType<AdminSessionsEnded>;

const adminSuspensionSchema = z.object({
  user_id: z.string(),
  until: isoTime,
  reason: z.string().nullable(),
  suspended_by: z.string(),
  suspended_at: isoTime,
}) satisfies z.ZodType<AdminSuspension>;

export const adminSuspensionListSchema = z.object({
  suspensions: z.array(adminSuspensionSchema),
  auth_mode: z.enum(["none", "oidc", "proxy"]),
}) satisfies z.ZodType<AdminSuspensionList>;

export const adminSuspendedSchema = z.object({
  suspension: adminSuspensionSchema,
  sessions_ended: z.number().int().nonnegative(),
}) satisfies z.ZodType<AdminSuspended>;

export const adminLiftedSchema = z.object({ lifted: z.string() });

export const auditUserListSchema = z.object({
  users: z.array(z.string()),
  more: z.boolean(),
}) satisfies z.ZodType<AuditUserList>;

// ---------- monitors (DESIGN.md §13) ----------

const monitorStateSchema = z.enum(["passing", "failing", "unknown"]);

export const monitorSchema = z.object({
  id: z.string(),
  name: z.string(),
  environment: z.enum(ENVIRONMENTS),
  cases: z.array(z.string()).nullable(),
  every_minutes: z.number().int(),
  allow_production_gift: z.boolean(),
  paused: z.boolean(),
  created_by: z.string(),
  created_at: z.string(),
  next_run_at: z.string(),
  last_run: z
    .object({
      id: z.string(),
      status: z.string(),
      passed: z.number().int(),
      failed: z.number().int(),
      finished_at: z.string().nullable(),
    })
    .nullable(),
  state: monitorStateSchema,
  running: z.boolean(),
  delivery_problem: z
    .object({
      event: z.string(),
      state: z.enum(["pending", "failed"]),
      attempts: z.number().int(),
      last_error: z.string().nullable(),
      next_attempt_at: z.string().nullable(),
    })
    .nullable(),
}) satisfies z.ZodType<MonitorView>;

export const monitorListSchema = z.object({
  monitors: z.array(monitorSchema),
}) satisfies z.ZodType<MonitorListResponse>;

export const monitorDetailSchema = z.object({
  monitor: monitorSchema,
  runs: z.array(
    z.object({
      id: z.string(),
      status: z.string(),
      passed: z.number().int(),
      failed: z.number().int(),
      failed_cases: z.array(z.string()),
      started_at: z.string(),
      finished_at: z.string().nullable(),
      scheduled: z.boolean(),
      late: z.boolean(),
    }),
  ),
}) satisfies z.ZodType<MonitorDetailResponse>;

export const monitorRunResultSchema = z.object({
  run_id: z.string(),
}) satisfies z.ZodType<MonitorRunResponse>;
export const monitorDeletedSchema = z.object({ deleted: z.string() });
