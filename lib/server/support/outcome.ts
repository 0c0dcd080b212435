/**
 * Turns a Balance Inquiry's exchange record (or the console's "no answer" error) into the support desk's outcome:
 * the eight purses or a sentence an agent can act on. Nothing of the raw exchange goes further than this.
 */
import "server-only";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { PURSES, type Purse } from "@/lib/shared/purses";
import { ApiError } from "@/lib/server/util/errors";
import type { LookupOutcome } from "@/lib/shared/support-contract";

export interface ClassifiedLookup {
  outcome: LookupOutcome;
  message: string;
  balances: Record<Purse, string> | null;
  upstreamStatus: number | null;
  retryAfterSeconds: number | null;
}

/** Seconds in a Retry-After header (delta-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed), 3600);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.min(3600, Math.max(0, Math.ceil((at - now) / 1000)));
}

function header(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === wanted);
  return key === undefined ? undefined : headers[key];
}

function purses(body: unknown): Record<Purse, string> | null {
  const balances = (body as { data?: { balances?: unknown } } | null)?.data?.balances;
  if (!balances || typeof balances !== "object") return null;
  const found = {} as Record<Purse, string>;
  for (const purse of PURSES) {
    const value = (balances as Record<string, unknown>)[purse];
    if (typeof value !== "string" || !/^-?\d+\.\d{2}$/.test(value)) return null;
    found[purse] = value;
  }
  return found;
}

export function classifyRecord(record: ExchangeRecord): ClassifiedLookup {
  const { status, headers, body } = record.response;
  const base = { upstreamStatus: status, retryAfterSeconds: null, balances: null };
  if (status === 200) {
    const balances = purses(body);
    if (balances) {
      return {
        ...base,
        outcome: "found",
        balances,
        message:
          "Balances found. Balance Inquiry does not say whether the card is active: an inactive card " +
          "answers its balances too.",
      };
    }
    return {
      ...base,
      outcome: "upstream_error",
      message:
        "The card service answered 200 without the eight balances in the expected form. Try again later.",
    };
  }
  if (status === 404) {
    return { ...base, outcome: "not_found", message: "No card with this number: check the digits." };
  }
  if (status === 429) {
    const wait = retryAfterSeconds(header(headers, "retry-after"));
    return {
      ...base,
      outcome: "rate_limited",
      retryAfterSeconds: wait,
      message:
        wait === null
          ? "The card service is busy (429): wait a moment, then try again."
          : `The card service is busy (429): try again in ${wait} second${wait === 1 ? "" : "s"}.`,
    };
  }
  if (status === 401 || status === 403) {
    return {
      ...base,
      outcome: "upstream_error",
      message: `The card service refused the console's credentials (${status}): tell the console's administrator.`,
    };
  }
  return {
    ...base,
    outcome: "upstream_error",
    message: `The card service failed (HTTP ${status}): try again later, or raise it with the card service.`,
  };
}

/** The console's "no answer" errors (504/502 from lib/server/card-api) as outcomes; any other error is not ours. */
export function classifyNoAnswer(error: unknown): ClassifiedLookup | null {
  if (!(error instanceof ApiError)) return null;
  const base = { upstreamStatus: null, retryAfterSeconds: null, balances: null };
  if (error.code === "upstream_timeout") {
    return {
      ...base,
      outcome: "timeout",
      message: "The card service did not answer in time: try again in a moment.",
    };
  }
  if (error.code === "upstream_unreachable" || error.code === "upstream_tls_error") {
    return {
      ...base,
      outcome: "unreachable",
      message: "The card service could not be reached: try again later, or tell the console's administrator.",
    };
  }
  return null;
}
