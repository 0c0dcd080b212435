/**
 * CSV export of the audit log with the same filters as the query, produced page by page: memory stays bounded
 * whatever the number of rows, and the response starts at once.
 */
import "server-only";
import type { Database } from "@/lib/db";
import type { AuditRow } from "./chain";
import { queryAuditLog, type AuditQuery } from "./query";

export const CSV_COLUMNS = [
  "seq",
  "time",
  "user_id",
  "roles",
  "client_address",
  "event",
  "environment",
  "operation",
  "card",
  "card_hmac",
  "upstream_status",
  "request_id",
  "outcome",
  "reason",
  "details",
  "prev_hash",
  "row_hash",
] as const;

const PAGE = 500;

/** RFC 4180 quoting; a leading = + - @ is prefixed with ' so a spreadsheet never runs a cell as a formula. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "string" ? value : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(row: AuditRow): string {
  return (
    [
      row.seq,
      row.time.toISOString(),
      row.userId,
      row.roles.join(" "),
      row.clientAddress,
      row.event,
      row.environment,
      row.operation,
      row.cardMasked,
      row.cardHmac,
      row.upstreamStatus,
      row.requestId,
      row.outcome,
      row.reason,
      row.details ? JSON.stringify(row.details) : null,
      row.prevHash,
      row.rowHash,
    ]
      .map(csvCell)
      .join(",") + "\r\n"
  );
}

/** The header line, then one line per row, newest first. Filters as in `queryAuditLog` (cursor/limit ignored). */
export async function* auditCsvLines(
  db: Database,
  hmacKey: string,
  filters: AuditQuery,
): AsyncGenerator<string> {
  yield CSV_COLUMNS.join(",") + "\r\n";
  let cursor: string | undefined;
  for (;;) {
    const page = await queryAuditLog(db, hmacKey, { ...filters, cursor, limit: PAGE });
    let chunk = "";
    for (const row of page.rows) chunk += csvLine(row);
    if (chunk) yield chunk;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}

/** A byte stream for `new Response(...)`; pulls the next page only when the client reads. */
export function auditCsvStream(
  db: Database,
  hmacKey: string,
  filters: AuditQuery,
): ReadableStream<Uint8Array> {
  const lines = auditCsvLines(db, hmacKey, filters);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
}
