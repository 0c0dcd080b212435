/**
 * The error codes the route wrapper itself can answer for a route method, derived from its declaration the way
 * the wrapper's steps (./route-steps) decide them: guards for every call, Origin and media type for a call with
 * a body, identity and access for a route that is not public, the rate limits of its options. The OpenAPI
 * document adds them to the codes the route declares, so no route restates them.
 */
import type { ErrorCode } from "@/lib/server/util/errors";
import type { DeclaredMethod } from "./declaration";
import { WITH_BODY } from "./named-environment";

type Errors = Partial<Record<ErrorCode, string>>;

const EVERY_CALL: Errors = {
  misdirected_request: "The request's Host is not one of this console's addresses.",
  validation_failed: "A path segment or parameter holds text the console does not take in.",
  internal_error: "The server failed unexpectedly; the error was logged.",
};

const MUTATING: Errors = {
  invalid_origin: "A cross-origin call (its Origin is not this console's).",
};

const WITH_A_BODY: Errors = {
  unsupported_media_type: "The body's Content-Type is not one the route reads.",
  payload_too_large: "The body is larger than the route reads.",
  request_aborted: "The client closed the connection before the whole body arrived.",
};

const INPUT: Errors = {
  validation_failed: "The input does not fit its schema: per-field messages in `details.fields`.",
};

const SIGNED_IN: Errors = {
  not_signed_in: "Not signed in, or the session ended (`details.session_end`).",
  forbidden_by_role: "The user's roles do not allow it.",
  user_suspended: "An administrator suspended the user.",
  identity_changed: "Another user signed in in this browser since the page was loaded.",
  rate_limited: "An anonymous caller's address is past its limit of refusals.",
  storage_unavailable: "The console's database did not answer; nothing was done.",
};

const UPSTREAM: Errors = {
  rate_limited: "The caller's per-minute limit of upstream calls (RATE_LIMIT_PER_MINUTE).",
  storage_unavailable: "The console's database did not answer; nothing was sent upstream.",
};

const THROTTLED: Errors = {
  rate_limited: "The caller's address is past its limit of refusals.",
};

/** Every code the wrapper can answer for `declaration`, with when (texts of one code joined). */
export function wrapperErrors(declaration: DeclaredMethod): Errors {
  const { method, access, options = {} } = declaration;
  const parts: Errors[] = [EVERY_CALL];
  if (method !== "GET") parts.push(MUTATING);
  if (WITH_BODY.has(method)) parts.push(WITH_A_BODY);
  if (declaration.body) parts.push({ invalid_json: "The body is not valid JSON." });
  if (declaration.body || declaration.query || declaration.params) parts.push(INPUT);
  if (access.kind !== "public" && access.kind !== "refusal") parts.push(SIGNED_IN);
  if (options.upstream) parts.push(UPSTREAM);
  if (options.throttleByAddress) parts.push(THROTTLED);
  return mergeErrors(...parts);
}

/** The codes of every part; a code named by several parts says each part's when. */
export function mergeErrors(...parts: Errors[]): Errors {
  const merged: Errors = {};
  for (const part of parts) {
    for (const [code, text] of Object.entries(part) as [ErrorCode, string][]) {
      const before = merged[code];
      merged[code] = before && before !== text ? `${before} ${text}` : text;
    }
  }
  return merged;
}
