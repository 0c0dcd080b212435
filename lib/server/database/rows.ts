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
