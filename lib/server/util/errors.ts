/**
 * The console API's one error type and shape: `{"error": {"code", "message", "details"?}}` (docs/design.md §4).
 * Route handlers throw `ApiError`; the route wrapper turns it into a response, and anything else into a
 * logged 500 of the same shape.
 */
import type { ErrorBody } from "@/lib/shared/contracts";
import type { CodeWithDetails, ErrorDetailsOf, NoAnswerCode } from "@/lib/shared/error-details";

const ERROR_STATUS = {
  bad_request: 400,
  invalid_json: 400,
  request_aborted: 400,
  validation_failed: 400,
  environment_unavailable: 400,
  header_not_allowed: 400,
  no_credentials: 401,
  token_refused: 401,
  not_signed_in: 401,
  invalid_origin: 403,
  forbidden_by_role: 403,
  user_suspended: 403,
  not_found: 404,
  method_not_allowed: 405,
  environment_changed: 409,
  identity_changed: 409,
  run_not_finished: 409,
  certification_finished: 409,
  run_in_progress: 409,
  unknown_user: 409,
  monitor_limit: 409,
  alerts_off: 409,
  payload_too_large: 413,
  bundle_too_large: 413,
  rate_limited: 429,
  unsupported_media_type: 415,
  misdirected_request: 421,
  internal_error: 500,
  upstream_unreachable: 502,
  upstream_tls_error: 502,
  token_too_large: 502,
  session_unstorable: 502,
  storage_unavailable: 503,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The HTTP status a code is answered with (the OpenAPI document groups codes by it). */
export function errorStatus(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

// Compile-time check: every code the details map names is a code this server answers with.
const _detailsNameRealCodes: [Exclude<CodeWithDetails, ErrorCode>] extends [never] ? true : false = true;
// Every upstream_* code is one after which the upstream did not answer (the browser reads them alike).
const _upstreamCodesAreNoAnswer: [Exclude<Extract<ErrorCode, `upstream_${string}`>, NoAnswerCode>] extends [
  never,
]
  ? true
  : false = true;

/**
 * Next may evaluate a module once per bundle, and process-wide singletons (config, token broker, clients) made by
 * one bundle throw errors whose class is another bundle's copy. A brand in the global symbol registry makes
 * `instanceof` hold across those copies.
 */
export function brandedInstanceCheck(brand: symbol): (value: unknown) => boolean {
  return (value) =>
    typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

const API_ERROR_BRAND = Symbol.for("card-services-console.ApiError");
const isApiError = brandedInstanceCheck(API_ERROR_BRAND);

/**
 * A console API error. `details` is typed by `code` (lib/shared/error-details.ts): the shape the pages read back
 * is the shape thrown here, and a code without an entry there carries none.
 */
export class ApiError<Code extends ErrorCode = ErrorCode> extends Error {
  readonly [API_ERROR_BRAND] = true;
  readonly status: number;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isApiError(value);
  }

  constructor(
    readonly code: Code,
    message: string,
    readonly details?: ErrorDetailsOf<Code>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }

  toResponse(): Response {
    return Response.json(this.toBody(), {
      status: this.status,
      headers: { "Cache-Control": "no-store", ...this.headers },
    });
  }
}

export function internalError(): ApiError {
  return new ApiError("internal_error", "The console server failed unexpectedly; the error was logged.");
}
