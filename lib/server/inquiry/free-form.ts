/**
 * A free-form request (`POST /api/requests`, docs/design.md §4): one of the card operations with the caller's headers
 * and body, through the same token lifecycle as an inquiry (renewed before expiry, renewed once after a 401 and
 * sent again as it was). Only the headers are checked here; the body goes out byte for byte, malformed or not.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { readTextWithLimit } from "@/lib/shared/body";
import { freeFormRequestInputSchema, type ExchangeRecord } from "@/lib/shared/contracts";
import { freeFormOperationName, headerProblems, headerValue, withoutHeader } from "@/lib/shared/free-form";
import { pathSegmentProblem } from "@/lib/shared/operations";
import { ApiError } from "@/lib/server/util/errors";
import { validateInput, validationError } from "@/lib/server/util/validation";
import { callWithToken } from "@/lib/server/token/authorized";
import { assertEnvironment, type CallContext } from "@/lib/server/token/call-context";

export type FreeFormInput = z.output<typeof freeFormRequestInputSchema>;

/**
 * The body may be 16 KiB of text, which JSON escaping can make several times larger: the request is read up to
 * this bound, past the wrapper's 16 KiB (only signed-in callers with the route's roles get this far).
 */
const MAX_REQUEST_BYTES = 128 * 1024;

/**
 * The request, validated. Not the wrapper's JSON reader: that refuses every control character, and a body's
 * line breaks are the caller's to send (the schema still refuses the others).
 */
export async function readFreeFormInput(request: Request): Promise<FreeFormInput> {
  let text: string | null;
  try {
    text = await readTextWithLimit(request, MAX_REQUEST_BYTES);
  } catch {
    throw new ApiError("request_aborted", "The client closed the connection before the whole body arrived.");
  }
  if (text === null) {
    throw new ApiError("payload_too_large", `The request body is larger than ${MAX_REQUEST_BYTES} bytes.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON.");
  }
  return validateInput(value, freeFormRequestInputSchema);
}

/** The card of a JSON body's `data.card_number`, for the audit row's mask and keyed hash. */
export function bodyCard(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    const card = (parsed as { data?: { card_number?: unknown } } | null)?.data?.card_number;
    return typeof card === "string" && /^\d{12,19}$/.test(card) ? card : undefined;
  } catch {
    return undefined;
  }
}

/** 400 `header_not_allowed` for a header the console owns; 400 `validation_failed` for malformed ones. */
function assertHeadersAllowed(headers: Record<string, string>): void {
  const problems = headerProblems(headers);
  const refused = problems.find((problem) => problem.code === "header_not_allowed");
  if (refused) throw new ApiError("header_not_allowed", refused.message, { header: refused.name });
  if (problems.length > 0) {
    throw validationError(
      Object.fromEntries(problems.map((problem) => [`headers.${problem.name}`, [problem.message]])),
    );
  }
}

/** The Request Id of the call: the X-Request-Id header, else `request_id`; both must agree when both are given. */
function requestIdOf(input: FreeFormInput, headers: Record<string, string>): string | undefined {
  const fromHeader = headerValue(headers, "X-Request-Id");
  if (fromHeader !== undefined && input.request_id !== undefined && fromHeader !== input.request_id) {
    throw validationError({
      request_id: ["differs from the X-Request-Id header: give one of them, or the same value in both"],
    });
  }
  return fromHeader ?? input.request_id;
}

/** What goes out: headers with the default Content-Type and the Request Id; the lookup's id in its path. */
function shapeFreeForm(input: FreeFormInput) {
  const given = input.headers ?? {};
  assertHeadersAllowed(given);
  const operation = freeFormOperationName(input.operation);
  const requestId = requestIdOf(input, given);
  if (operation === "transaction_lookup") {
    if (!requestId) throw validationError({ request_id: ["is required for a lookup: it is the path's id"] });
    const problem = pathSegmentProblem(requestId);
    if (problem) throw validationError({ request_id: [problem] });
    if (input.body) throw validationError({ body: ["a lookup is a GET: it has no body"] });
    const headers = withoutHeader(given, "X-Request-Id");
    return { operation, requestId, headers, body: undefined };
  }
  const headers: Record<string, string> = { ...given };
  if (headerValue(headers, "Content-Type") === undefined) headers["Content-Type"] = "application/json";
  // A Gift Balance Inquiry always carries one (a fresh one unless given), as the inquiry route does.
  const id = operation === "gift_balance_inquiry" ? (requestId ?? randomUUID()) : requestId;
  if (id !== undefined && headerValue(headers, "X-Request-Id") === undefined) headers["X-Request-Id"] = id;
  return { operation, requestId: id, headers, body: input.body ?? "" };
}

/** One free-form call on the call context: the authorized-call driver with a raw request of the operation. */
export async function runFreeForm(call: CallContext, input: FreeFormInput): Promise<ExchangeRecord> {
  const started = performance.now();
  assertEnvironment(call, input.environment);
  const { operation, requestId, headers, body } = shapeFreeForm(input);
  const record = await callWithToken(
    call,
    {
      operation,
      ...(requestId === undefined ? {} : { requestId }),
      raw: { headers, ...(body === undefined ? {} : { body }) },
    },
    started,
  );
  return { ...record, free_form: true };
}
