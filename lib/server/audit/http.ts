/**
 * The audit log over HTTP (docs/design.md §4, §7): the query string of `GET /api/audit` and `/api/audit/export.csv`,
 * and a row as JSON. The card filter is a last 4 or a full card number (hashed on the server, never stored).
 */
import "server-only";
import { z } from "zod";
import type { AuditRowJson } from "@/lib/shared/audit-contract";
import { validateInput } from "@/lib/server/util/validation";
import type { AuditRow } from "./chain";
import { auditQuerySchema, type AuditQuery } from "./query";
import type { VerifyFrom } from "./verify";

const FILTER_PARAMS = { user: "userId", event: "event", card: "card", from: "from", to: "to" } as const;
const PAGE_PARAMS = { cursor: "cursor", limit: "limit" } as const;

/** The filters (and, with `paging`, cursor and limit) of a request's query; 400 `validation_failed` otherwise. */
export function auditQueryFromUrl(url: URL, paging: boolean): AuditQuery {
  const names = { ...FILTER_PARAMS, ...(paging ? PAGE_PARAMS : {}) } as Record<string, keyof AuditQuery>;
  const raw: Record<string, string> = {};
  for (const [param, value] of url.searchParams) {
    const key = names[param];
    if (!key) {
      validateInput({ [param]: value }, z.object({}).strict());
      continue;
    }
    if (value !== "") raw[key] = value;
  }
  return validateInput(raw, auditQuerySchema) as AuditQuery;
}

const verifyQuerySchema = z.object({ from: z.enum(["start", "checkpoint"]).default("start") });

/**
 * Where `GET /api/audit/verify` starts: `?from=checkpoint` at the last checkpoint an earlier verify found
 * intact, row 1 otherwise; 400 `validation_failed` for another value. Other parameters are ignored, as before.
 */
export function verifyFromUrl(url: URL): VerifyFrom {
  const from = url.searchParams.get("from");
  return validateInput(from === null || from === "" ? {} : { from }, verifyQuerySchema).from;
}

/** What a read of the log asked for, for its own audit row: the filters, never a full card number. */
export function describeFilters(query: AuditQuery): Record<string, string> {
  const details: Record<string, string> = {};
  if (query.userId) details.user = query.userId;
  if (query.event) details.event = query.event;
  if (query.card)
    details.card_filter = query.card.length === 4 ? `last4 ${query.card}` : "full card (hashed)";
  if (query.from) details.from = String(query.from);
  if (query.to) details.to = String(query.to);
  return details;
}

export function auditRowJson(row: AuditRow): AuditRowJson {
  return {
    seq: row.seq,
    at: row.time.toISOString(),
    user_id: row.userId,
    roles: row.roles,
    client_address: row.clientAddress,
    event: row.event,
    environment: row.environment,
    operation: row.operation,
    card: row.cardMasked,
    card_hash: row.cardHmac,
    upstream_status: row.upstreamStatus,
    request_id: row.requestId,
    // Only "success" or "failure" is ever written: the append schema (./entry) admits nothing else.
    outcome: row.outcome as AuditRowJson["outcome"],
    reason: row.reason,
    details: row.details,
  };
}
