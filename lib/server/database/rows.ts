import "server-only";
import type { SQL } from "drizzle-orm";
import type { Database } from "./connection";
import type { PreparedQuery } from "./pglite-prepared";

/** Rows of a raw query: postgres-js answers an array, PGlite an object with `rows`. */
export async function queryRows<T>(db: Pick<Database, "execute">, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/** The driver under drizzle: PGlite with the console's prepared statements (connection.ts), or postgres-js. */
interface DriverClient {
  queryPrepared?: PreparedQuery;
  unsafe?: (text: string, params: unknown[], options: { prepare: boolean }) => Promise<unknown[]>;
}

/**
 * Rows of a fixed statement text with positional parameters, sent to the driver as it is. For the writes every
 * proxied call makes: drizzle's query building and its execute path cost more than the statement on PGlite. The
 * text is prepared once per connection on both backends, so each parameter needs its cast in the text.
 */
export async function queryText<T>(db: Database, text: string, params: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client: DriverClient }).$client;
  if (client.unsafe) return (await client.unsafe(text, params, { prepare: true })) as T[];
  if (client.queryPrepared) return (await client.queryPrepared(text, params)) as T[];
  throw new Error("queryText: the database has no driver client");
}

/** A column written from one array parameter per batch (`unnest`): its element type and how a row gives it. */
export interface ArrayColumn<Row> {
  name: string;
  /** The SQL type of its parameter array's elements. */
  type: "bigint" | "text" | "smallint";
  /** The row's value as the array element; text when the stored type is made from text (`select`). */
  value: (row: Row) => string | number | null;
  /** The stored value made from the element `v.<name>`, when it is not the element itself. */
  select?: string;
}

/**
 * A batch of rows as one array per column: `names` for the INSERT's column list and `select`, which reads the
 * arrays from parameter `firstParameter` on. The text is the same whatever the batch's size, so it is prepared
 * once (queryText); `arrays` gives the parameters of a batch in the same order.
 */
export function columnArraysInsert<Row>(columns: readonly ArrayColumn<Row>[], firstParameter = 1) {
  const parameters = columns.map(({ type }, index) => `$${firstParameter + index}::${type}[]`);
  return {
    names: columns.map(({ name }) => `"${name}"`).join(", "),
    select:
      `select ${columns.map(({ name, select }) => select ?? `v.${name}`).join(", ")}\n` +
      `from unnest(${parameters.join(", ")})\n  as v(${columns.map(({ name }) => name).join(", ")})`,
    arrays: (rows: readonly Row[]): (string | number | null)[][] =>
      columns.map(({ value }) => rows.map(value)),
  };
}
