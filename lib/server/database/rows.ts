import "server-only";
import type { SQL } from "drizzle-orm";
import type { Database } from "./connection";

/** Rows of a raw query: postgres-js answers an array, PGlite an object with `rows`. */
export async function queryRows<T>(db: Pick<Database, "execute">, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}
