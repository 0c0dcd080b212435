/**
 * The audit_log columns in one list, in table order: how each is written and how it reads in the CSV export. The
 * INSERT and the export header are made from it, so a new column is added here once.
 *
 * A batch is written as one array per column (`unnest`), so the statement's text is the same whatever the batch's
 * size: the database parses one short statement with 22 parameters rather than one with 18 per row.
 */
import "server-only";
import { columnArraysInsert, type ArrayColumn } from "@/lib/server/database/rows";
import type { AuditRow } from "./chain";

interface AuditColumn extends ArrayColumn<AuditRow> {
  /** Its CSV header and cell; absent for a column the export leaves out. */
  csv?: { header: string; cell: (row: AuditRow) => unknown };
}

/** A column stored as it is bound, whose CSV cell is the stored value under the same name. */
function column(name: string, key: keyof AuditRow, type: AuditColumn["type"]): AuditColumn {
  return {
    name,
    type,
    value: (row) => row[key] as string | number | null,
    csv: { header: name, cell: (row) => row[key] },
  };
}

export const AUDIT_COLUMNS: readonly AuditColumn[] = [
  column("seq", "seq", "bigint"),
  {
    // As text: drizzle's postgres-js driver passes a timestamptz[] parameter through unserialized.
    name: "time",
    type: "text",
    value: (row) => row.time.toISOString(),
    select: "v.time::timestamptz",
    csv: { header: "time", cell: (row) => row.time.toISOString() },
  },
  column("user_id", "userId", "text"),
  {
    // A text[] element per row would make a two-dimensional array, which must be rectangular.
    name: "roles",
    type: "text",
    value: (row) => row.roles.join(","),
    select: "string_to_array(v.roles, ',')",
    csv: { header: "roles", cell: (row) => row.roles.join(" ") },
  },
  column("client_address", "clientAddress", "text"),
  column("event", "event", "text"),
  column("environment", "environment", "text"),
  column("operation", "operation", "text"),
  { ...column("card_masked", "cardMasked", "text"), csv: { header: "card", cell: (row) => row.cardMasked } },
  // Only a search key: the masked card already shows the last 4.
  { ...column("card_last4", "cardLast4", "text"), csv: undefined },
  column("card_hmac", "cardHmac", "text"),
  column("upstream_status", "upstreamStatus", "smallint"),
  column("request_id", "requestId", "text"),
  column("outcome", "outcome", "text"),
  column("reason", "reason", "text"),
  {
    name: "details",
    type: "text",
    value: (row) => (row.details === null ? null : JSON.stringify(row.details)),
    select: "v.details::jsonb",
    csv: { header: "details", cell: (row) => (row.details ? JSON.stringify(row.details) : null) },
  },
  column("prev_hash", "prevHash", "text"),
  column("row_hash", "rowHash", "text"),
];

/** Parameters before the columns' arrays in the statement below. */
const HEAD_PARAMETERS = 4;
const BATCH = columnArraysInsert(AUDIT_COLUMNS, HEAD_PARAMETERS + 1);

/** `"seq", "time", …` for the INSERT's column list. */
export const INSERT_COLUMNS = BATCH.names;

/**
 * One statement: the chain head moves from ($3, $4) to ($1, $2), and the rows (one array per column, from $5 on)
 * are inserted only if that move happened.
 */
export const INSERT_ROWS_AFTER_HEAD = `with moved as (
  update audit_chain_head set last_seq = $1::bigint, last_hash = $2
  where id = 1 and last_seq = $3::bigint and last_hash = $4
  returning 1
)
insert into audit_log (${INSERT_COLUMNS})
${BATCH.select}
where exists (select 1 from moved)
returning seq`;

/** The columns' arrays of a batch, in INSERT_COLUMNS order. */
export const columnArrays = BATCH.arrays;

const EXPORTED = AUDIT_COLUMNS.flatMap(({ csv }) => (csv ? [csv] : []));

export const CSV_COLUMNS: readonly string[] = EXPORTED.map(({ header }) => header);

/** A row's CSV cells, in CSV_COLUMNS order. */
export function csvCells(row: AuditRow): unknown[] {
  return EXPORTED.map(({ cell }) => cell(row));
}
