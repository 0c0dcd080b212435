/**
 * A log migrated with rows of the plain SHA-256 chain (written before the chain was keyed, migration 0005) gets a
 * keyed row right after them, in the same start that migrated it: verify requires that row (./verify), because
 * only a row written with the key pins where the keyed chain starts. Only the migration's own start writes it: a
 * start that found the plain rows already migrated must not, or a writer who chained the whole log again with
 * plain SHA-256 and moved the start past it would get it vouched for at the next restart.
 */
import "server-only";
import { eq } from "drizzle-orm";
import type { Database } from "@/lib/server/database";
import { auditChainHead } from "@/lib/server/database/schema";
import type { AuditAppender } from "./append";

/** The migration that introduced the keyed chain (and `keyed_from`). */
export const KEYED_CHAIN_MIGRATION = "0005_audit_keyed_chain";

/** Appends the first keyed row when the plain rows have none after them yet; true when it did. */
export async function markKeyedStart(db: Database, append: AuditAppender): Promise<boolean> {
  const [head] = await db.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
  if (!head || head.keyedFrom === 1 || head.keyedFrom <= head.lastSeq) return false;
  await append({
    event: "audit_chain_keyed",
    outcome: "success",
    details: { keyed_from: head.keyedFrom, plain_rows: head.keyedFrom - 1 },
  });
  return true;
}
