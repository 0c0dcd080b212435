/**
 * Every event name the console writes to the audit log (DESIGN.md §7). Isomorphic: the server's audit writers
 * are typed by it (lib/server/http/route.ts `AuditFields`, lib/server/support/audit-rows.ts), so a new event must be added
 * here, and the audit page offers the same list as filter suggestions. Rows keep `event` as a string: a log
 * may hold names an older console wrote.
 */
export const AUDIT_EVENTS = [
  "sign_in",
  "sign_in_failed",
  "sign_out",
  "session_end",
  "refused",
  "credentials_set",
  "token_request",
  "gift_balance_inquiry",
  "balance_inquiry",
  "transaction_lookup",
  "certification_run_started",
  "certification_run_cancelled",
  "certification_evidence_downloaded",
  "support_lookup",
  "support_batch_started",
  "support_batch_card",
  "support_batch_cancelled",
  "audit_read",
  "audit_verify",
  "audit_export",
] as const;

export type AuditEventName = (typeof AUDIT_EVENTS)[number];
