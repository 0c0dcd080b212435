export type {
  AuditPageJson as AuditPageView,
  AuditRowJson as AuditRowView,
  ChainVerdict,
} from "@/lib/api/audit-contract";

/** Events the console writes, offered as suggestions in the filter (any name may be typed). */
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
  "certification_run",
  "support_lookup",
  "support_batch",
  "audit_read",
  "audit_verify",
  "audit_export",
] as const;
