/**
 * zod schema of a history export (lib/client/history-store.ts). Loaded on demand by `importRuns` only,
 * so that zod stays out of the pages' first-load JavaScript.
 */
import { LOCATION_ID_MAX_LENGTH } from "@/lib/shared/sandbox-demo";
import { z } from "zod";
import { ENVIRONMENTS, OPERATIONS } from "@/lib/shared/contracts";
import { HISTORY_EXPORT_FORMAT, HISTORY_EXPORT_VERSION } from "./history-format";
import type { HistoryRun } from "./history-run";

const isoDate = z.string().refine((value) => !Number.isNaN(Date.parse(value)), "must be an ISO date");
const headers = z.record(z.string(), z.string());

const tokenEventSchema = z.object({
  type: z.enum(["acquired", "renewed_before_expiry", "renewed_after_401", "requested"]),
  at: isoDate,
  fingerprint: z.string().max(64),
  detail: z.string().max(1000).optional(),
});

const timingsSchema = z.object({
  total_ms: z.number().nonnegative(),
  token_ms: z.number().nonnegative(),
  upstream_ms: z.number().nonnegative(),
  retried_ms: z.number().nonnegative().optional(),
});

const exchangeSchema = z.object({
  id: z.string().min(1).max(200),
  operation: z.enum(OPERATIONS),
  environment: z.enum(ENVIRONMENTS),
  started_at: isoDate,
  duration_ms: z.number().nonnegative(),
  request_id: z.string().max(200).optional(),
  request: z.object({ method: z.string().max(16), url: z.string().max(2048), headers, body: z.unknown() }),
  response: z.object({
    status: z.number().int().min(0).max(999),
    headers,
    body: z.unknown(),
    body_is_text: z.boolean().optional(),
    schema_issues: z.array(z.string()).optional(),
  }),
  token_events: z.array(tokenEventSchema),
  timings: timingsSchema.optional(),
  free_form: z.boolean().optional(),
});

const tokenMetadataSchema = z.object({
  token_type: z.string(),
  scopes: z.array(z.string()),
  expires_in: z.number(),
  issued_at: isoDate,
  expires_at: isoDate,
  fingerprint: z.string().max(64),
  header: z.record(z.string(), z.unknown()),
  claims: z.record(z.string(), z.unknown()),
  meta: z.record(z.string(), z.unknown()).nullable(),
  jsonapi: z.record(z.string(), z.unknown()).nullable(),
});

const runSchema = z.object({
  id: z.string().min(1).max(200),
  started_at: isoDate,
  saved_at: isoDate,
  exchange: exchangeSchema,
  card: z.object({ masked: z.string().max(32), last4: z.string().max(4) }).nullable(),
  location_id: z.string().max(LOCATION_ID_MAX_LENGTH).nullable(),
  token: tokenMetadataSchema.nullable(),
});

const historyExportSchema = z.object({
  format: z.literal(HISTORY_EXPORT_FORMAT),
  version: z.literal(HISTORY_EXPORT_VERSION),
  exported_at: isoDate,
  runs: z.array(runSchema).max(10_000),
});

export type ParsedHistoryExport = { ok: true; runs: HistoryRun[] } | { ok: false; message: string };

export function parseHistoryExport(value: unknown): ParsedHistoryExport {
  const result = historyExportSchema.safeParse(value);
  if (result.success) return { ok: true, runs: result.data.runs as HistoryRun[] };
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  return {
    ok: false,
    message: `This is not a console history export: ${issue?.message ?? "invalid"}${where}.`,
  };
}
