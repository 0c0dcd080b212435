/**
 * Every URL of the console's HTTP interface (docs/design.md §4) the browser calls, built in one place.
 * SWR keys are these URLs, so a mutation elsewhere can revalidate a view by the same key.
 */
import type { InquiryOperation } from "@/lib/shared/operations";

export const apiKeys = {
  session: "/api/session",
  sessionCredentials: "/api/session/credentials",
  sessionEnvironment: "/api/session/environment",
  token: "/api/token",
  giftBalanceInquiry: "/api/inquiries/gift-balance",
  balanceInquiry: "/api/inquiries/balance",
  transactionLookupPrefix: "/api/transactions/request-id/",
  /** A free-form call of one card operation (the request editor of /inquiry, History's replay of one). */
  freeFormRequests: "/api/requests",
  certificationRuns: "/api/certification/runs",
  certificationVerify: "/api/certification/verify",
  /** Integration certification of the user's own application (docs/design.md §11). */
  clientCertifications: "/api/client-certifications",
  /** The signed-in user, their roles and what those allow (`{"user": null}` when signed out). */
  me: "/api/me",
  logout: "/api/auth/logout",
  login: "/api/auth/login",
  audit: "/api/audit",
  auditVerify: "/api/audit/verify",
  auditExport: "/api/audit/export.csv",
  /** The team's inquiry runs kept on the server (team consoles). */
  teamRuns: "/api/runs",
  /** Admin: the live sessions; `DELETE` with `?user=ID` ends all of a user's. */
  adminSessions: "/api/admin/sessions",
  /** Admin: the suspensions in force (and the auth mode); `POST` suspends a user. */
  adminSuspensions: "/api/admin/suspensions",
  /** Admin: the user ids the audit log knows, searched (`auditUsersKey`). */
  auditUsers: "/api/audit/users",
  /** Monitors: certification on a schedule (docs/design.md §13). */
  monitors: "/api/monitors",
  /** Not a route: the SWR key of the browser's run history (IndexedDB, lib/client/history-store.ts). */
  history: "indexeddb:history",
} as const;

export type { InquiryOperation };

/** The console route of each inquiry operation: a new one in the registry must name its route here. */
const INQUIRY_KEYS: Record<InquiryOperation, string> = {
  gift_balance_inquiry: apiKeys.giftBalanceInquiry,
  balance_inquiry: apiKeys.balanceInquiry,
};

export function inquiryKey(operation: InquiryOperation): string {
  return INQUIRY_KEYS[operation];
}

/** The test cards offered beside the card field in `environment`, masked (docs/design.md §5). */
export function testCardsKey(environment: string): string {
  return `/api/test-cards?environment=${encodeURIComponent(environment)}`;
}

/** One test card's full number, fetched when it is chosen. */
export function testCardNumberUrl(id: string, environment: string): string {
  return `/api/test-cards/${encodeURIComponent(id)}?environment=${encodeURIComponent(environment)}`;
}

/** Lookup Transaction by Request Id: the Request Id is one path segment, so it is percent-encoded. */
export function transactionLookupKey(requestId: string): string {
  return apiKeys.transactionLookupPrefix + encodeURIComponent(requestId);
}

/** One monitor and its last runs; `${key}/run` runs it now. */
export function monitorKey(id: string): string {
  return `${apiKeys.monitors}/${encodeURIComponent(id)}`;
}

/** A monitor's last alert deliveries; `${key}/${delivery}/redeliver` sends one again. */
export function monitorDeliveriesKey(id: string): string {
  return `${monitorKey(id)}/deliveries`;
}

/** Queues a `monitor.test` alert. */
export const TEST_ALERT_URL = `${apiKeys.monitors}/test-alert`;

/** One certification run (progress and results); its evidence bundle is `${key}/evidence`. */
export function certificationRunKey(id: string): string {
  return `${apiKeys.certificationRuns}/${encodeURIComponent(id)}`;
}

/** One client certification; its steps, finish and evidence hang below it. */
export function clientCertificationKey(id: string): string {
  return `${apiKeys.clientCertifications}/${encodeURIComponent(id)}`;
}

/** One exchange of a certification run, as stored. */
export function certificationExchangeKey(runId: string, exchangeId: string): string {
  return `${certificationRunKey(runId)}/exchanges/${encodeURIComponent(exchangeId)}`;
}

/** Admin: one live session, by its handle (DELETE ends it). */
export function adminSessionKey(handle: string): string {
  return `${apiKeys.adminSessions}/${encodeURIComponent(handle)}`;
}

/** Admin: all of one user's sessions (DELETE ends them). */
export function adminUserSessionsKey(userId: string): string {
  return `${apiKeys.adminSessions}?user=${encodeURIComponent(userId)}`;
}

/** Admin: one user's suspension (DELETE lifts it). */
export function adminSuspensionKey(userId: string): string {
  return `${apiKeys.adminSuspensions}/${encodeURIComponent(userId)}`;
}

/** Admin: user ids of the audit log that contain `query` (any case), at most `limit`. */
export function auditUsersKey(query: string, limit = 20): string {
  return `${apiKeys.auditUsers}?q=${encodeURIComponent(query)}&limit=${limit}`;
}

/** Where "Sign in" goes: the provider, then back to `returnTo` (a path of this console). */
export function loginUrl(returnTo: string): string {
  return `${apiKeys.login}?return_to=${encodeURIComponent(returnTo)}`;
}

/** Filters of the audit log, as `GET /api/audit` and `/api/audit/export.csv` take them (empty ones left out). */
export interface AuditFilters {
  user?: string;
  event?: string;
  /** Last 4 digits or a full card number (the server hashes it). */
  card?: string;
  /** ISO times. */
  from?: string;
  to?: string;
}

function auditQuery(filters: AuditFilters, extra: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, ...extra })) {
    if (value) params.set(name, value);
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** One page of the audit log: the first with no cursor, then each `next_cursor`. */
export function auditPageKey(filters: AuditFilters, cursor?: string | null, limit = 50): string {
  return apiKeys.audit + auditQuery(filters, { cursor: cursor ?? undefined, limit: String(limit) });
}

export function auditExportUrl(filters: AuditFilters): string {
  return apiKeys.auditExport + auditQuery(filters);
}

/** Search of the team's runs (`GET /api/runs`); empty filters are left out. */
export interface TeamRunFilters {
  request_id?: string;
  user?: string;
  operation?: InquiryOperation | "";
}

export function teamRunsKey(filters: TeamRunFilters): string {
  return apiKeys.teamRuns + auditQuery({}, { ...filters });
}

/** One team run, with its exchange record. */
export function teamRunKey(id: string): string {
  return `${apiKeys.teamRuns}/${encodeURIComponent(id)}`;
}

/** The page link that opens one team run: shareable with anyone whose role may see it. */
export function teamRunPageUrl(id: string): string {
  return `/history?team_run=${encodeURIComponent(id)}#team-run`;
}
