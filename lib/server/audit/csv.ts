/**
 * CSV export of the audit log with the same filters as the query, produced page by page: memory stays bounded
 * whatever the number of rows, and the response starts at once. On the embedded database each page's query runs
 * on the request thread: the export yields the event loop between pages, so other requests wait one page at most.
 */
import "server-only";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Database } from "@/lib/server/database";
import { csvCell } from "@/lib/server/util/csv";
import type { AuditRow } from "./chain";
import { CSV_COLUMNS, csvCells } from "./columns";
import { queryAuditLog, type AuditQuery } from "./query";

export { csvCell };

const PAGE = 500;

export function csvLine(row: AuditRow): string {
  return csvCells(row).map(csvCell).join(",") + "\r\n";
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
    await nextTurn();
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
