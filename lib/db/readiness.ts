/** What `/api/ready` reports: the database answers and has every committed migration. */
import "server-only";
import { sql } from "drizzle-orm";
import { getDatabase, type StorageSettings } from "./index";
import { pendingMigrations } from "./migrate";

export type Readiness =
  { ready: true; database: "pglite" | "postgres" } | { ready: false; reason: string; pending?: string[] };

export async function checkReadiness(settings: StorageSettings): Promise<Readiness> {
  let handle;
  try {
    handle = await getDatabase(settings);
    await handle.db.execute(sql`select 1`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // A URL in an error message could carry a password: name only the kind of failure.
    return { ready: false, reason: `database unreachable: ${message.replace(/\/\/[^@\s]*@/g, "//***@")}` };
  }
  const pending = await pendingMigrations(handle.db);
  if (pending.length > 0) return { ready: false, reason: "database migrations pending", pending };
  return { ready: true, database: handle.kind };
}
