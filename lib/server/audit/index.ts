/**
 * The audit log (DESIGN.md §7) bound to one database and HMAC key: append, verify, query, CSV export.
 * `now` is injectable for tests.
 */
import "server-only";
import type { Database } from "@/lib/server/db";
import { createAuditAppender } from "./append";
import { auditCsvLines, auditCsvStream } from "./csv";
import type { AuditEntryInput } from "./entry";
import { queryAuditLog, type AuditQuery } from "./query";
import { verifyAuditChain } from "./verify";

export type { AuditRow } from "./chain";
export type { AuditEntryInput } from "./entry";
export type { AuditPage, AuditQuery } from "./query";
export type { VerifyResult } from "./verify";
export { auditEntrySchema, cardHmac } from "./entry";
export { auditQuerySchema, MAX_PAGE_SIZE } from "./query";

export interface AuditLogOptions {
  db: Database;
  /** AUDIT_HMAC_KEY (see lib/server/keys for a generated one). */
  hmacKey: string;
  now?: () => Date;
}

export function createAuditLog({ db, hmacKey, now }: AuditLogOptions) {
  if (!hmacKey) throw new Error("The audit log needs an HMAC key (AUDIT_HMAC_KEY).");
  const append = createAuditAppender(db, hmacKey, now);
  return {
    /** Resolves once the row is committed. Use one audit log per process so that concurrent appends batch. */
    append: (entry: AuditEntryInput) => append(entry),
    verify: () => verifyAuditChain(db),
    query: (query: AuditQuery = {}) => queryAuditLog(db, hmacKey, query),
    csvLines: (filters: AuditQuery = {}) => auditCsvLines(db, hmacKey, filters),
    csvStream: (filters: AuditQuery = {}) => auditCsvStream(db, hmacKey, filters),
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
