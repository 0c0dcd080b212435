/**
 * The `details` of a console API error, per error code (docs/design.md §4: `{"error": {"code", "message",
 * "details"?}}`). The server's `ApiError` (lib/server/util/errors.ts) only accepts these shapes for these codes, and the
 * browser's `<ApiErrorAlert>` reads them back through `errorDetails`. Isomorphic and zod-free: the pages
 * bundle it, and the details come from our own server, so the reader checks the code, not every field.
 */
import type { EnvironmentName, ExchangeRecord, OperationName, Role } from "./contracts";

/** 400 `validation_failed`: messages per field path (e.g. "card_number"; "(body)" for the whole). */
export interface ValidationErrorDetails {
  fields: Record<string, string[]>;
  /** A support batch: the lines that held no card number, and how many there were. */
  bad_lines?: { line: number; message: string }[];
  bad_line_count?: number;
  /** A support batch over SUPPORT_BATCH_MAX_CARDS: how many cards it held, and the most allowed. */
  cards?: number;
  max_cards?: number;
}

/** 400 `header_not_allowed`: the header of a free-form request the console will not send. */
interface HeaderNotAllowedDetails {
  header: string;
}

/** 409 `environment_changed`: the page showed one environment, the session is on another. */
export interface EnvironmentChangedDetails {
  session_environment: EnvironmentName;
  requested_environment: EnvironmentName;
}

/** 400 `environment_unavailable`: the environments this server has configured. */
interface EnvironmentUnavailableDetails {
  available: EnvironmentName[];
}

/** 403 `forbidden_by_role`: what was asked (an action of lib/server/identity/roles.ts), where, and who may. */
interface ForbiddenByRoleDetails {
  action: string;
  environment?: EnvironmentName;
  roles: Role[];
  allowed_roles: Role[];
}

/** 421 `misdirected_request`: the Host asked for, and the public origins this console answers to. */
interface MisdirectedRequestDetails {
  host: string;
  accepted: string[];
}

/** 429 `rate_limited`: the per-user budget of upstream calls, and when the next call is allowed. */
export interface RateLimitedDetails {
  limit: number;
  window_seconds: number;
  retry_after_seconds: number;
}

/** 401 `token_refused`: the refused token request, as an exchange record. */
interface TokenRefusedDetails {
  exchange: ExchangeRecord;
}

/**
 * 502/504 when the upstream did not answer: which call, where, the Request Id a Gift Balance Inquiry was sent
 * with (it may have been recorded), and the network error code when there was one.
 */
export interface NoAnswerDetails {
  operation: OperationName;
  url: string;
  request_id?: string;
  cause?: string;
}

/** 502 `upstream_unreachable` from sign-in: the identity provider could not be reached. */
interface SignInUnreachableDetails {
  sign_in_error: string;
}

/**
 * 401 `not_signed_in` when the request's cookie named a session that is over: why it ended (`idle`: the idle
 * timeout; `expired`: its maximum length; `signed_out`; `revoked`: ended by an administrator).
 */
interface NotSignedInDetails {
  session_end: "idle" | "expired" | "signed_out" | "revoked";
}

/** 403 `user_suspended`: an administrator keeps this user out until `until` (ISO time), or until lifted. */
interface UserSuspendedDetails {
  until: string;
}

/**
 * 409 `unknown_user` from `POST /api/admin/suspensions`: the console has never seen this user id (ids match exactly,
 * as the identity provider sends them); `similar` are ids it has seen that differ only in case.
 */
interface UnknownUserDetails {
  user_id: string;
  similar: string[];
}

/** Every error code that carries details, and their shape. Codes not named here carry none. */
export interface ErrorDetailsByCode {
  not_signed_in: NotSignedInDetails;
  validation_failed: ValidationErrorDetails;
  header_not_allowed: HeaderNotAllowedDetails;
  environment_unavailable: EnvironmentUnavailableDetails;
  forbidden_by_role: ForbiddenByRoleDetails;
  user_suspended: UserSuspendedDetails;
  unknown_user: UnknownUserDetails;
  misdirected_request: MisdirectedRequestDetails;
  environment_changed: EnvironmentChangedDetails;
  rate_limited: RateLimitedDetails;
  token_refused: TokenRefusedDetails;
  upstream_timeout: NoAnswerDetails;
  upstream_tls_error: NoAnswerDetails;
  upstream_unreachable: NoAnswerDetails | SignInUnreachableDetails;
}

export type CodeWithDetails = keyof ErrorDetailsByCode;

/** The details a code may carry: its shape from the map, or nothing. */
export type ErrorDetailsOf<Code extends string> = Code extends CodeWithDetails
  ? ErrorDetailsByCode[Code]
  : undefined;

/** What both sides hold of an error: its code and its details as they came. */
export interface ErrorWithDetails {
  code: string;
  details?: unknown;
}

/** The error's details typed by its code, when it has that code and details; else null. */
export function errorDetails<Code extends CodeWithDetails>(
  error: ErrorWithDetails,
  code: Code,
): ErrorDetailsByCode[Code] | null {
  if (error.code !== code) return null;
  const { details } = error;
  return typeof details === "object" && details !== null && !Array.isArray(details)
    ? (details as ErrorDetailsByCode[Code])
    : null;
}

/** The codes after which the upstream may have acted: it was called, and did not answer. */
export type NoAnswerCode = Extract<CodeWithDetails, `upstream_${string}`>;
