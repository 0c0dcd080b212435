/**
 * The audit_log columns in one list, in table order: how each is written (a typed SQL parameter, so both
 * drivers bind it alike) and how it reads in the CSV export. The INSERT and the export header are made from it,
 * so a new column is added here once.
 */
import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { AuditRow } from "./chain";

interface AuditColumn {
  /** The column's name in audit_log. */
  name: string;
  value: (row: AuditRow) => SQL;
  /** Its CSV header and cell; absent for a column the export leaves out. */
  csv?: { header: string; cell: (row: AuditRow) => unknown };
}

/** A column whose CSV cell is the stored value under the same name. */
function column(name: string, key: keyof AuditRow, type: string): AuditColumn {
  return {
    name,
    value: (row) => sql`${row[key]}${sql.raw(`::${type}`)}`,
    csv: { header: name, cell: (row) => row[key] },
  };
}

export const AUDIT_COLUMNS: readonly AuditColumn[] = [
  column("seq", "seq", "bigint"),
  {
    name: "time",
    value: (row) => sql`${row.time.toISOString()}::timestamptz`,
    csv: { header: "time", cell: (row) => row.time.toISOString() },
  },
  column("user_id", "userId", "text"),
  {
    name: "roles",
    value: (row) => sql`string_to_array(${row.roles.join(",")}::text, ',')`,
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
    value: (row) => sql`${row.details === null ? null : JSON.stringify(row.details)}::jsonb`,
    csv: { header: "details", cell: (row) => (row.details ? JSON.stringify(row.details) : null) },
  },
  column("prev_hash", "prevHash", "text"),
  column("row_hash", "rowHash", "text"),
];

/** `"seq", "time", …` for the INSERT's column list. */
export const INSERT_COLUMNS = AUDIT_COLUMNS.map(({ name }) => `"${name}"`).join(", ");

/** One VALUES tuple of a row, in INSERT_COLUMNS order. */
export function rowValues(row: AuditRow): SQL {
  return sql`(${sql.join(
    AUDIT_COLUMNS.map((item) => item.value(row)),
    sql`, `,
  )})`;
}

const EXPORTED = AUDIT_COLUMNS.flatMap(({ csv }) => (csv ? [csv] : []));

export const CSV_COLUMNS: readonly string[] = EXPORTED.map(({ header }) => header);

/** A row's CSV cells, in CSV_COLUMNS order. */
export function csvCells(row: AuditRow): unknown[] {
  return EXPORTED.map(({ cell }) => cell(row));
}
