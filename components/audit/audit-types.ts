/** `GET /api/audit` and `/api/audit/verify` as the page reads them (lib/audit/http.ts builds them). */
export interface AuditRowView {
  seq: number;
  at: string;
  user_id: string | null;
  roles: string[];
  client_address: string | null;
  event: string;
  environment: string | null;
  operation: string | null;
  card: string | null;
  card_hash: string | null;
  upstream_status: number | null;
  request_id: string | null;
  outcome: "success" | "failure";
  reason: string | null;
  details: Record<string, string | number | boolean | null> | null;
}

export interface AuditPageView {
  rows: AuditRowView[];
  next_cursor: string | null;
}

export type ChainVerdict =
  | { ok: true; rows: number }
  | { ok: false; rows: number; first_bad_row: number | string | null; reason: string };

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
