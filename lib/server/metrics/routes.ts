/**
 * Route labels of console_http_requests_total: the route's template, never the path a caller sent, so that no
 * request can add a series. test/unit/tools/metrics.test.ts checks the list against the route files of app/api.
 */

/** Every app/api route folder but the catch-all, as Next matches it. */
export const API_ROUTES: readonly string[] = [
  "/api/admin/sessions/[id]",
  "/api/admin/sessions",
  "/api/admin/suspensions/[user]",
  "/api/admin/suspensions",
  "/api/audit/export.csv",
  "/api/audit",
  "/api/audit/verify",
  "/api/audit/users",
  "/api/auth/callback",
  "/api/auth/login",
  "/api/auth/logout",
  "/api/certification/public-key",
  "/api/certification/runs/[id]/cancel",
  "/api/certification/runs/[id]/evidence",
  "/api/certification/runs/[id]/exchanges/[exchangeId]",
  "/api/certification/runs/[id]",
  "/api/certification/runs",
  "/api/certification/verify",
  "/api/client-certifications/[id]/evidence",
  "/api/client-certifications/[id]/finish",
  "/api/client-certifications/[id]",
  "/api/client-certifications/[id]/steps/[step]",
  "/api/client-certifications",
  "/api/health",
  "/api/inquiries/balance",
  "/api/inquiries/gift-balance",
  "/api/me",
  "/api/metrics",
  "/api/monitors/[id]/run",
  "/api/monitors/[id]",
  "/api/monitors",
  "/api/openapi.json",
  "/api/postman-collection.json",
  "/api/postman-environment.json",
  "/api/requests",
  "/api/ready",
  "/api/runs/[id]",
  "/api/runs",
  "/api/session/credentials",
  "/api/session/environment",
  "/api/session",
  "/api/support/batches/[id]/results.csv",
  "/api/support/batches/[id]/results",
  "/api/support/batches/[id]/retry",
  "/api/support/batches/[id]",
  "/api/support/batches",
  "/api/support/lookups",
  "/api/starter-clients/[file]",
  "/api/starter-clients",
  "/api/test-cards/[id]",
  "/api/test-cards",
  "/api/token",
  "/api/transactions/request-id/[id]",
];

/** The label of every path no route above serves (the catch-all's 404). */
const UNKNOWN_ROUTE = "unknown";

interface Template {
  /** A segment's literal text, or null for a dynamic one. */
  segments: (string | null)[];
  /** A dynamic segment's parameter name (`id` for `[id]`), by position. */
  names: (string | null)[];
  label: string;
  dynamic: number;
}

const DYNAMIC = /^\[(\w+)\]$/;

function compile(route: string): Template {
  const parts = route.split("/");
  const segments = parts.map((part) => (DYNAMIC.test(part) ? null : part));
  return {
    segments,
    names: parts.map((part) => DYNAMIC.exec(part)?.[1] ?? null),
    label: parts.map((part) => part.replace(DYNAMIC, ":$1")).join("/"),
    dynamic: segments.filter((segment) => segment === null).length,
  };
}

// Static segments win over dynamic ones, as in Next's matching: fewer dynamic segments are tried first.
const TEMPLATES = API_ROUTES.map(compile).sort((a, b) => a.dynamic - b.dynamic);

function templateOf(pathname: string): Template | undefined {
  const parts = pathname.split("/");
  return TEMPLATES.find(
    ({ segments }) =>
      segments.length === parts.length &&
      segments.every((segment, index) => (segment === null ? parts[index] !== "" : segment === parts[index])),
  );
}

/** `/api/runs/:id` for `/api/runs/<anything>`; UNKNOWN_ROUTE for a path no route serves. */
export function routeLabel(pathname: string): string {
  return templateOf(pathname)?.label ?? UNKNOWN_ROUTE;
}

/** The parameter a path segment (by its position) stands for (`id` in `/api/runs/[id]`), or `(path)`. */
export function segmentName(pathname: string, index: number): string {
  return templateOf(pathname)?.names[index] ?? "(path)";
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** A request method as a label: the HTTP methods the console knows, any other as `other`. */
export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : "other";
}

/** An HTTP status as a label: 100–599, anything else (an upstream's odd answer) as `other`. */
export function statusLabel(status: number): string {
  return Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : "other";
}
