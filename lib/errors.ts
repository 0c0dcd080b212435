/**
 * The console API's one error type and shape: `{"error": {"code", "message", "details"?}}` (DESIGN.md §4).
 * Route handlers throw `ApiError`; the route wrapper turns it into a response, and anything else into a
 * logged 500 of the same shape.
 */
import type { ErrorBody } from "@/lib/api/contracts";

export const ERROR_STATUS = {
  invalid_json: 400,
  validation_failed: 400,
  environment_unavailable: 400,
  no_credentials: 401,
  token_refused: 401,
  invalid_origin: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal_error: 500,
  upstream_unreachable: 502,
  upstream_tls_error: 502,
  token_too_large: 502,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
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
