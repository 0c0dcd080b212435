/**
 * Route labels of console_http_requests_total: the template of the catalogue entry the call was served by
 * (lib/server/routes), never the path a caller sent, so that no request can add a series.
 */

/** The label of every path no declared route serves (the catch-all's 404). */
const UNKNOWN_ROUTE = "unknown";

const DYNAMIC = /^\[(\w+)\]$/;
const CATCH_ALL = /^\[\.\.\.\w+\]$/;

/** `/api/runs/:id` for the template `/api/runs/[id]`; UNKNOWN_ROUTE for the catch-all. */
export function routeLabel(template: string): string {
  const parts = template.split("/");
  if (parts.some((part) => CATCH_ALL.test(part))) return UNKNOWN_ROUTE;
  return parts.map((part) => part.replace(DYNAMIC, ":$1")).join("/");
}

/** The parameter a path segment (by its position) stands for in `template` (`id` in `/api/runs/[id]`), or `(path)`. */
export function segmentName(template: string, index: number): string {
  return DYNAMIC.exec(template.split("/")[index] ?? "")?.[1] ?? "(path)";
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
