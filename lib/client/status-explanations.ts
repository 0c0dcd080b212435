/**
 * What an upstream status means and what to do next. 400, 401 and 403 quote the specification's
 * section 7; the others explain the embedded sandbox's documented choices (docs/design.md §5) and HTTP.
 */
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { headerValue } from "./http-status";

export interface StatusExplanation {
  /** Whose words the meaning is: the spec's section 7, or the console's reading. */
  source: "API specification §7" | "console";
  meaning: string;
  next: string;
  /** Where the next step happens, when it is in the console. */
  action?: { href: "/connect" | "/token"; label: string };
}

export function explainExchange(exchange: ExchangeRecord): StatusExplanation | null {
  return specExplanation(exchange) ?? consoleExplanation(exchange);
}

/** 400 from the token endpoint, 401 and 403: the specification's own words (section 7). */
function specExplanation(exchange: ExchangeRecord): StatusExplanation | null {
  const status = exchange.response.status;
  const isToken = exchange.operation === "token";
  if (status === 400 && isToken) {
    return {
      source: "API specification §7",
      meaning: "The token request is malformed: check client_id, client_secret and grant_type.",
      next: "Check the client_id and client_secret you saved on Connect (the console always sends grant_type client_credentials), then request a token again.",
      action: { href: "/connect", label: "Check credentials" },
    };
  }
  if (status === 401) {
    return {
      source: "API specification §7",
      meaning: "The access token is invalid or expired. Request a new token.",
      next: isToken
        ? "The token endpoint refused the client. Check the credentials on Connect."
        : "The console already renews the token and retries once after a 401. If it still fails, request a new token; if that fails too, the credentials may have been revoked.",
      action: isToken
        ? { href: "/connect", label: "Check credentials" }
        : { href: "/token", label: "Request a new token" },
    };
  }
  if (status === 403) {
    return {
      source: "API specification §7",
      meaning: "The token is valid but lacks the scope required by the endpoint.",
      next: "Both balance operations need the read:transactions scope (the sandbox's rule). Check the token's scopes and use a client that has it; scopes are granted by the operator at onboarding.",
      action: { href: "/token", label: "See the token's scopes" },
    };
  }
  return null;
}

/** The other statuses, in the console's words: the sandbox's documented choices and HTTP. */
function consoleExplanation(exchange: ExchangeRecord): StatusExplanation | null {
  const { status, body_is_text, headers } = exchange.response;
  if (status === 400) {
    return {
      source: "console",
      meaning: "The upstream rejected the request as malformed.",
      next: "Check the card number (12–19 digits), location_id, entry_mode and pin_mode, and that a Gift Balance Inquiry carries an X-Request-Id. The response body says which field.",
    };
  }
  if (status === 404 && exchange.operation === "balance_inquiry") {
    return {
      source: "console",
      meaning: "The card was not found (Balance Inquiry answers 404 for an unknown card).",
      next: "Check the card number. A Gift Balance Inquiry for the same card answers 201 declined instead.",
    };
  }
  if (status === 409) {
    return {
      source: "console",
      meaning:
        "This Request Id was already used: X-Request-Id must be unique for each Gift Balance Inquiry (API specification §8).",
      next: "Nothing was recorded. Generate a new Request Id (or leave it empty for a fresh one) and run again.",
    };
  }
  if (status === 429) {
    const retryAfter = headerValue(headers, "retry-after");
    return {
      source: "console",
      meaning: "The upstream is rate limiting this client.",
      next: retryAfter ? `Wait ${retryAfter} s (Retry-After) and run again.` : "Wait a moment and run again.",
    };
  }
  if (status >= 500) {
    return {
      source: "console",
      meaning: `The upstream failed with ${status}. Its response is shown exactly as it came.`,
      next: "Try again later; if it persists, keep the raw response and the Request Id as evidence for the operator.",
    };
  }
  if (status >= 200 && status < 300 && body_is_text) {
    return {
      source: "console",
      meaning: `The upstream answered ${status}, but its body is not JSON, which the specification requires.`,
      next: "Nothing could be read from it. The raw response below shows exactly what came back.",
    };
  }
  return null;
}
