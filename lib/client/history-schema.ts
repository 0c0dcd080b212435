/**
 * zod schema of a history export (lib/client/history-store.ts), and the types of a run and an export. Loaded on
 * demand by `importRuns` only (other modules import its types alone), so that zod stays out of the pages'
 * first-load JavaScript. A run's exchange and token are the shapes the console answered them in.
 */
import { LOCATION_ID_MAX_LENGTH } from "@/lib/shared/sandbox-demo";
import { z } from "zod";
import { exchangeRecordSchema, tokenMetadataSchema } from "@/lib/shared/contracts";
import { HISTORY_EXPORT_FORMAT, HISTORY_EXPORT_VERSION } from "./history-format";

const isoDate = z.string().refine((value) => !Number.isNaN(Date.parse(value)), "must be an ISO date");

const runSchema = z.object({
  /** The exchange record's id. */
  id: z.string().min(1).max(200),
  /** Copy of `exchange.started_at`: the sort key. */
  started_at: isoDate,
  saved_at: isoDate,
  exchange: exchangeRecordSchema,
  /** Masked card number and its last 4 digits, for inquiries. */
  card: z.object({ masked: z.string().max(32), last4: z.string().max(4) }).nullable(),
  location_id: z.string().max(LOCATION_ID_MAX_LENGTH).nullable(),
  /** For token requests: the token's metadata (scopes, expiry, claims, fingerprint), never the token. */
  token: tokenMetadataSchema.nullable(),
});
/** A run as the browser's history keeps it. */
export type HistoryRun = z.infer<typeof runSchema>;

const historyExportSchema = z.object({
  format: z.literal(HISTORY_EXPORT_FORMAT),
  version: z.literal(HISTORY_EXPORT_VERSION),
  exported_at: isoDate,
  runs: z.array(runSchema).max(10_000),
});
/** The export document that carries runs between browsers. */
export type HistoryExport = z.infer<typeof historyExportSchema>;

export type ParsedHistoryExport = { ok: true; runs: HistoryRun[] } | { ok: false; message: string };

export function parseHistoryExport(value: unknown): ParsedHistoryExport {
  const result = historyExportSchema.safeParse(value);
  if (result.success) return { ok: true, runs: result.data.runs };
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  return {
    ok: false,
    message: `This is not a console history export: ${issue?.message ?? "invalid"}${where}.`,
  };
}
