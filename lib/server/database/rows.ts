import "server-only";
import type { SQL } from "drizzle-orm";
import type { Database } from "./connection";

/** Rows of a raw query: postgres-js answers an array, PGlite an object with `rows`. */
export async function queryRows<T>(db: Pick<Database, "execute">, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/** The driver under drizzle: PGlite's `query` or postgres-js's `unsafe`. */
interface DriverClient {
  query?: (text: string, params: unknown[]) => Promise<{ rows: unknown[] }>;
  unsafe?: (text: string, params: unknown[], options: { prepare: boolean }) => Promise<unknown[]>;
}

/**
 * Rows of a fixed statement text with positional parameters, sent to the driver as it is. For the writes every
 * proxied call makes: drizzle's query building and its execute path cost more than the statement on PGlite. The
 * text is prepared once per connection on PostgreSQL.
 */
export async function queryText<T>(db: Database, text: string, params: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client: DriverClient }).$client;
  if (client.unsafe) return (await client.unsafe(text, params, { prepare: true })) as T[];
  if (client.query) return (await client.query(text, params)).rows as T[];
  throw new Error("queryText: the database has no driver client");
}
