/**
 * Every URL of the console's HTTP interface (DESIGN.md §4) the browser calls, built in one place.
 * SWR keys are these URLs, so a mutation elsewhere can revalidate a view by the same key.
 */
import type { OperationName } from "@/lib/api/contracts";

export const apiKeys = {
  session: "/api/session",
  sessionCredentials: "/api/session/credentials",
  sessionEnvironment: "/api/session/environment",
  token: "/api/token",
  giftBalanceInquiry: "/api/inquiries/gift-balance",
  balanceInquiry: "/api/inquiries/balance",
  transactionLookupPrefix: "/api/transactions/request-id/",
  certificationRuns: "/api/certification/runs",
  certificationVerify: "/api/certification/verify",
  /** Not a route: the SWR key of the browser's run history (IndexedDB, lib/client/history-store.ts). */
  history: "indexeddb:history",
} as const;

export type InquiryOperation = Exclude<OperationName, "token" | "transaction_lookup">;

export function inquiryKey(operation: InquiryOperation): string {
  return operation === "gift_balance_inquiry" ? apiKeys.giftBalanceInquiry : apiKeys.balanceInquiry;
}

/** Lookup Transaction by Request Id: the Request Id is one path segment, so it is percent-encoded. */
export function transactionLookupKey(requestId: string): string {
  return apiKeys.transactionLookupPrefix + encodeURIComponent(requestId);
}

/** One certification run (progress and results); its evidence bundle is `${key}/evidence`. */
export function certificationRunKey(id: string): string {
  return `${apiKeys.certificationRuns}/${encodeURIComponent(id)}`;
}
