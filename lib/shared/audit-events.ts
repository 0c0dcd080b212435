/**
 * Every event name the console writes to the audit log (docs/design.md §7). Isomorphic: the server's audit writers
 * are typed by it (lib/server/http/route.ts `AuditFields`, lib/server/support/audit-rows.ts), so a new event must be added
 * here, and the audit page offers the same list as filter suggestions. Rows keep `event` as a string: a log
 * may hold names an older console wrote.
 */
export const AUDIT_EVENTS = [
  "sign_in",
  "sign_in_failed",
  "sign_out",
  "session_end",
  "user_suspended",
  "user_unsuspended",
  "refused",
  "anonymous_refusals",
  "credentials_set",
  "token_request",
  "gift_balance_inquiry",
  "balance_inquiry",
  "transaction_lookup",
  "certification_run_started",
  "certification_run_viewed",
  "certification_upstream_call",
  "certification_run_cancelled",
  "certification_evidence_downloaded",
  "certification_evidence_verified",
  "monitor_created",
  "monitor_changed",
  "monitor_deleted",
  "monitor_run_started",
  "monitor_alert_redelivered",
  "monitor_test_alert",
  "client_certification_started",
  "client_certification_step_armed",
  "client_certification_plan_armed",
  "client_certification_finished",
  "client_certification_evidence_downloaded",
  "support_lookup",
  "support_batch_started",
  "support_batch_card",
  "support_batch_cancelled",
  "support_batch_results_downloaded",
  "support_batch_not_found",
  "audit_read",
  "audit_verify",
  "audit_export",
  "audit_chain_keyed",
] as const;

export type AuditEventName = (typeof AUDIT_EVENTS)[number];
