/**
 * Applies one fault family (lib/shared/fault-families.ts) to one call of a certification client, in the
 * sandbox's own HTTP handling (docs/design.md §14): a reset resets the socket, a cut body is a short body behind
 * valid headers, a late answer is held, a drip really drips. Only the call the plan names is touched; every
 * other caller's calls go through the engine untouched. Framework-free.
 */
import type { FaultEffect, FaultFamily } from "@/lib/shared/fault-families";
import { delay, errorResponse, jsonResponse } from "./http";

/** The socket under a request, where the server hosting the sandbox can give it. */
export interface SandboxConnection {
  /** Resets the connection (TCP RST) at once. */
  reset(): void;
}

export interface FaultContext {
  request: Request;
  /** The engine's own answer to this request (it records a Gift Balance Inquiry's transaction). */
  handle(request: Request): Promise<Response>;
  connection: SandboxConnection | undefined;
  /** The client's timeout the certification was started with (CARD_API_TIMEOUT_MS). */
  clientTimeoutMs: number;
  now: () => number;
  /** A token of the same client whose lifetime is one second. */
  shortToken(): Promise<string>;
}

/** What the client got, as the recorder keeps it; `settled` when the answer streams past its return. */
export interface FaultOutcome {
  response: Response;
  /** The status the client saw (0: none, the connection was reset before any byte). */
  status: number;
  body: string | null;
  behaviour: "fault" | "client_closed" | "reset";
  settled?: Promise<{ behaviour: FaultOutcome["behaviour"]; endedMs: number }>;
}

const HTML_PAGE =
  "<!doctype html><html><body><h1>502 Bad Gateway</h1><p>upstream maintenance</p></body></html>";
/** How far past the client's timeout a late or dripping answer ends: far enough to tell waiting from giving up. */
const BEYOND_TIMEOUT_MS = 5000;

export async function applyFault(family: FaultFamily, context: FaultContext): Promise<FaultOutcome> {
  const effect = family.effect;
  switch (effect.type) {
    case "status":
      return statusFault(effect, context);
    case "reset":
      if (effect.afterCommit) await context.handle(context.request);
      return reset(context);
    case "cut_body":
      return cutBody(await context.handle(context.request), effect.close, context);
    case "html_body": {
      const answered = await context.handle(context.request);
      return plain(new Response(HTML_PAGE, { status: answered.status, headers: htmlHeaders() }));
    }
    case "late_headers":
      return lateHeaders(effect.beyondTimeout, context);
    case "drip_body":
      return drip(await context.handle(context.request), context);
    case "revoke":
      return plain(
        errorResponse(401, "invalid_token", "Invalid token", "The access token was revoked.", {
          "WWW-Authenticate":
            'Bearer error="invalid_token", error_description="The access token was revoked."',
        }),
      );
    case "insufficient_scope":
      return plain(
        errorResponse(403, "insufficient_scope", "Insufficient scope", "The access token lacks the scope.", {
          "WWW-Authenticate": 'Bearer error="insufficient_scope", scope="read:transactions"',
        }),
      );
    case "retry_after":
      return plain(rateLimited(effect.form, context.now()));
    case "not_found":
      return plain(
        errorResponse(
          404,
          "transaction_not_found",
          "Transaction not found",
          "No transaction has this Request Id.",
        ),
      );
    case "duplicate":
      await context.handle(context.request);
      return plain(
        errorResponse(
          409,
          "duplicate_request_id",
          "Duplicate X-Request-Id",
          "This X-Request-Id was already used; send a new one for each Gift Balance Inquiry.",
        ),
      );
    default:
      return rewriteJson(await context.handle(context.request), effect, context);
  }
}

async function plain(response: Response): Promise<FaultOutcome> {
  const body = await response.clone().text();
  return { response, status: response.status, body, behaviour: "fault" };
}

async function statusFault(
  effect: Extract<FaultEffect, { type: "status" }>,
  context: FaultContext,
): Promise<FaultOutcome> {
  if (effect.afterCommit) await context.handle(context.request);
  const title = effect.status === 503 ? "Service unavailable" : "Upstream error";
  return plain(errorResponse(effect.status, effect.code, title, "The card service failed (injected fault)."));
}

function rateLimited(form: "seconds" | "date" | "long" | "absent", nowMs: number): Response {
  const headers: Record<string, string> = {};
  // An HTTP-date has whole seconds: 3 s ahead, rounded down, is 2 to 3 s from now.
  if (form === "seconds") headers["Retry-After"] = "1";
  if (form === "date")
    headers["Retry-After"] = new Date(Math.floor((nowMs + 3000) / 1000) * 1000).toUTCString();
  if (form === "long") headers["Retry-After"] = "180";
  return errorResponse(429, "rate_limited", "Too many requests", "Slow down (injected fault).", headers);
}

/** A body stream that fails at once: a server that cannot reset the socket closes it instead. */
function failingBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start: (controller) => controller.error(new Error("connection reset (fault)")),
  });
}

function reset(context: FaultContext): FaultOutcome {
  // With the socket reset, what is returned goes nowhere; without it, a failing body makes the server drop it.
  const response = context.connection
    ? new Response(null, { status: 204 })
    : new Response(failingBody(), { status: 200 });
  context.connection?.reset();
  return { response, status: 0, body: null, behaviour: "reset" };
}

function htmlHeaders(): Record<string, string> {
  return { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" };
}

function headersOf(response: Response, extra: Record<string, string> = {}): Headers {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return headers;
}

async function cutBody(answered: Response, close: boolean, context: FaultContext): Promise<FaultOutcome> {
  const full = new TextEncoder().encode(await answered.text());
  const half = full.slice(0, Math.max(1, Math.floor(full.length / 2)));
  const sent = new TextDecoder().decode(half);
  if (!close) {
    const response = new Response(half, { status: answered.status, headers: headersOf(answered) });
    return { response, status: answered.status, body: sent, behaviour: "fault" };
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(half);
    },
    async pull(controller) {
      // The half has gone out with the headers; then the connection dies with the rest announced.
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (!context.connection) return controller.error(new Error("connection reset mid-body (fault)"));
      context.connection.reset();
      controller.close();
    },
  });
  const headers = headersOf(answered, { "Content-Length": String(full.length) });
  return {
    response: new Response(body, { status: answered.status, headers }),
    status: answered.status,
    body: sent,
    behaviour: "fault",
  };
}

async function lateHeaders(beyondTimeout: boolean, context: FaultContext): Promise<FaultOutcome> {
  const answered = await context.handle(context.request);
  const holdMs = beyondTimeout
    ? context.clientTimeoutMs + BEYOND_TIMEOUT_MS
    : Math.floor(context.clientTimeoutMs / 2);
  try {
    await delay(holdMs, context.request.signal);
  } catch {
    const response = errorResponse(
      499,
      "client_closed_request",
      "Client closed request",
      "The client gave up.",
    );
    return { response, status: 499, body: null, behaviour: "client_closed" };
  }
  const body = await answered.clone().text();
  return { response: answered, status: answered.status, body, behaviour: "fault" };
}

/** The body in 20 pieces spread over the client's timeout + BEYOND_TIMEOUT_MS; ends early when the client leaves. */
async function drip(answered: Response, context: FaultContext): Promise<FaultOutcome> {
  const full = new TextEncoder().encode(await answered.text());
  const pieces = 20;
  const size = Math.ceil(full.length / pieces);
  const intervalMs = Math.ceil((context.clientTimeoutMs + BEYOND_TIMEOUT_MS) / pieces);
  let finish: (value: { behaviour: FaultOutcome["behaviour"]; endedMs: number }) => void = () => undefined;
  const settled = new Promise<{ behaviour: FaultOutcome["behaviour"]; endedMs: number }>((resolve) => {
    finish = resolve;
  });
  let offset = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset > 0) await new Promise((resolve) => (timer = setTimeout(resolve, intervalMs)));
      controller.enqueue(full.slice(offset, offset + size));
      offset += size;
      if (offset >= full.length) {
        controller.close();
        finish({ behaviour: "fault", endedMs: context.now() });
      }
    },
    cancel() {
      clearTimeout(timer);
      finish({ behaviour: "client_closed", endedMs: context.now() });
    },
  });
  context.request.signal.addEventListener(
    "abort",
    () => finish({ behaviour: "client_closed", endedMs: context.now() }),
    {
      once: true,
    },
  );
  const headers = headersOf(answered, { "Content-Length": String(full.length) });
  return {
    response: new Response(body, { status: answered.status, headers }),
    status: answered.status,
    body: new TextDecoder().decode(full),
    behaviour: "fault",
    settled,
  };
}

async function rewriteJson(
  answered: Response,
  effect: FaultEffect,
  context: FaultContext,
): Promise<FaultOutcome> {
  const text = await answered.text();
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return plain(new Response(text, { status: answered.status, headers: headersOf(answered) }));
  }
  if (answered.ok) await rewrite(value, effect, context);
  return plain(jsonResponse(answered.status, value, Object.fromEntries(headersOf(answered))));
}

type JsonObject = Record<string, unknown>;
const objectAt = (value: unknown): JsonObject | undefined =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : undefined;

async function rewrite(value: JsonObject, effect: FaultEffect, context: FaultContext): Promise<void> {
  const data = objectAt(value.data);
  if (effect.type === "unknown_fields") {
    value.x_trace = { region: "eu-west-1", hop: 3 };
    if (data) {
      data.x_partner_reference = "PR-20491";
      const attributes = objectAt(data.attributes);
      if (attributes) attributes.x_issued_by = "auth-7";
    }
    const meta = objectAt(value.meta);
    if (meta) meta.x_region = "eu-west-1";
  }
  if (effect.type === "unknown_enum" && data) {
    if (effect.field === "response_status") data.response_status = "approved_pending_review";
    else data.response_code = "approved_with_notice";
  }
  if (effect.type === "extra_purse") {
    const balances = objectAt(data?.balances);
    if (balances) balances.travel = "4.00";
  }
  if (effect.type === "short_token") {
    const token = await context.shortToken();
    const attributes = objectAt(data?.attributes);
    if (attributes) Object.assign(attributes, { access_token: token, expires_in: 1 });
    else if (typeof value.access_token === "string")
      Object.assign(value, { access_token: token, expires_in: 1 });
  }
}
