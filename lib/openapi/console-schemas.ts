/**
 * zod schemas of the console's response bodies (DESIGN.md §4). The request bodies are lib/api/contracts.ts's,
 * which the routes validate with; these describe what the routes answer, each checked by TypeScript against
 * the interface the route builds (`satisfies z.ZodType<…>`), so the OpenAPI document cannot drift from the code.
 */
import { z } from "zod";
import {
  ENVIRONMENTS,
  OPERATIONS,
  type ErrorBody,
  type ExchangeRecord,
  type SessionInfo,
  type TokenEvent,
  type TokenMetadata,
  type TokenResult,
} from "@/lib/api/contracts";

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
}) satisfies z.ZodType<ExchangeRecord>;

export const tokenResultSchema = z.object({
  token: tokenMetadataSchema.nullable(),
  exchange: exchangeRecordSchema,
}) satisfies z.ZodType<TokenResult>;

export const healthSchema = z.object({ status: z.literal("ok") });
export const readySchema = z.object({ status: z.literal("ready"), database: z.enum(["pglite", "postgres"]) });

// From the issue-10 contract (routes built in the sign-in branch; reconciled when it lands).
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

export const auditVerifySchema = z.union([
  z.object({ ok: z.literal(true), rows: z.number().int() }),
  z.object({
    ok: z.literal(false),
    rows: z.number().int(),
    first_bad_row: z.number().int(),
    reason: z.string(),
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
