/**
 * Who may scrape GET /api/metrics: a scraper presenting `Authorization: Bearer $METRICS_TOKEN`, or a signed-in
 * admin. Series carry no card or secret, but route counts and pool sizes are still an operator's business.
 */
import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Role } from "@/lib/shared/contracts";
import { ApiError } from "@/lib/server/util/errors";

/** METRICS_TOKEN: unset (admins only) or a token long enough not to be guessed. */
const metricsTokenSchema = z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional();

export function configuredMetricsToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.METRICS_TOKEN?.trim();
  return metricsTokenSchema.parse(value === "" ? undefined : value);
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Whether the request carries the configured bearer token (compared in constant time). */
export function hasMetricsToken(request: Request, token: string | undefined): boolean {
  if (!token) return false;
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "");
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

/** 403 `forbidden_by_role` unless the user is an admin. */
export function assertMetricsReader(user: { roles: readonly Role[] }): void {
  if (user.roles.includes("admin")) return;
  throw new ApiError(
    "forbidden_by_role",
    "The metrics need the role admin, or the scraper's bearer token (METRICS_TOKEN).",
  );
}
