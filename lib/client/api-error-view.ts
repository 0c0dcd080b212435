/**
 * What `<ApiErrorAlert>` shows for a console API error, decided by its code and its typed details
 * (lib/shared/error-details.ts): a title, and which body. Pure, so the mapping is tested without a browser.
 */
import type { EnvironmentName, ExchangeRecord } from "@/lib/shared/contracts";
import { errorDetails } from "@/lib/shared/error-details";
import { isNoAnswerStatus, requestIdOfError } from "./outcome-unknown";

/** The part of an error the alert reads: ApiClientError has it, and so does a plain copy of one. */
export interface ConsoleErrorLike {
  code: string;
  /** HTTP status; 0 when the console could not be reached. */
  status: number;
  message: string;
  details?: unknown;
}

const TITLES: Record<string, string> = {
  no_credentials: "Connect first",
  token_refused: "The token endpoint refused the credentials",
  upstream_timeout: "The upstream did not answer in time",
  upstream_unreachable: "The upstream could not be reached",
  upstream_tls_error: "The upstream's TLS connection failed",
  validation_failed: "Check the highlighted fields",
  environment_changed: "The environment changed in another tab",
  not_signed_in: "You are signed out",
  forbidden_by_role: "Your role does not allow this",
  rate_limited: "Too many calls: wait a moment",
};

const DEFAULT_ERROR_TITLE = "The request could not run";

type ApiErrorBody =
  | { kind: "no_credentials" }
  | { kind: "not_signed_in" }
  | { kind: "rate_limited"; retryAfterSeconds: number | null }
  | { kind: "environment_changed"; from: EnvironmentName; to: EnvironmentName }
  /** Sent, no answer: the Request Id it went with, so it can be looked up or retried. */
  | { kind: "no_answer_with_request_id"; requestId: string }
  | { kind: "message"; connectLink: boolean };

export interface ApiErrorView {
  title: string;
  body: ApiErrorBody;
  /** The exchange the error carries (the refused token request of `token_refused`), shown below. */
  exchange: ExchangeRecord | null;
  /** 502/504: the upstream was called and gave no answer, so there is no exchange to show. */
  noAnswer: boolean;
}

function bodyOf(error: ConsoleErrorLike): ApiErrorBody {
  if (error.code === "no_credentials") return { kind: "no_credentials" };
  if (error.code === "not_signed_in") return { kind: "not_signed_in" };
  const rate = errorDetails(error, "rate_limited");
  if (error.code === "rate_limited") {
    const seconds = rate?.retry_after_seconds;
    return {
      kind: "rate_limited",
      retryAfterSeconds: typeof seconds === "number" && Number.isFinite(seconds) ? seconds : null,
    };
  }
  const change = errorDetails(error, "environment_changed");
  if (change?.session_environment && change.requested_environment) {
    return {
      kind: "environment_changed",
      from: change.requested_environment,
      to: change.session_environment,
    };
  }
  const requestId = isNoAnswerStatus(error.status) ? requestIdOfError(error) : null;
  if (requestId) return { kind: "no_answer_with_request_id", requestId };
  return { kind: "message", connectLink: error.code === "token_refused" };
}

/**
 * The view of one error. `fallbackTitle` names what failed in the page's words ("The replay got no answer")
 * for codes without a title of their own.
 */
export function describeApiError(error: ConsoleErrorLike, fallbackTitle = DEFAULT_ERROR_TITLE): ApiErrorView {
  const exchange = errorDetails(error, "token_refused")?.exchange;
  return {
    title: TITLES[error.code] ?? fallbackTitle,
    body: bodyOf(error),
    exchange: exchange && typeof exchange === "object" ? exchange : null,
    noAnswer: isNoAnswerStatus(error.status),
  };
}
