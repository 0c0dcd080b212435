/**
 * Clients registered from outside the sandbox (the console's integration certification, docs/design.md §11), through
 * an injected port: the sandbox asks the port who a client is, which behaviour is armed for it, and hands it
 * every call made with that client or its tokens. The sandbox keeps no state of its own about them, so every
 * instance behind a load balancer agrees (the port is backed by the shared database). Framework-free.
 */
import { matchOperationPath, type OperationName } from "@/lib/shared/operations";
import { findFaultFamily } from "@/lib/shared/fault-families";
import { MAX_BODY_BYTES, delay, errorResponse } from "./http";
import { readTextWithLimit } from "@/lib/shared/body";
import { applyFault, type FaultOutcome, type SandboxConnection } from "./faults";

/** A client the port knows: the sandbox issues it tokens like a demo client. */
export interface RegisteredClient {
  clientId: string;
  scopes: readonly string[];
  expiresIn: number;
  /** Tokens issued before this instant (ms since epoch) are refused with 401: the client's tokens were revoked. */
  revokedBeforeMs: number | null;
  /** True when its calls are counted in fault plans (docs/design.md §14); other clients cost no plan query. */
  faultPlans?: boolean;
}

/** What the sandbox does with a registered client's next inquiry. Taking one consumes it (once across instances). */
export type ArmedBehaviour = "normal" | "delay" | "rate_limited";

/** One call as it reached the sandbox and as it was answered (raw: the port masks and redacts). */
export interface SandboxCall {
  clientId: string;
  operation: OperationName | null;
  startedAtMs: number;
  durationMs: number;
  request: { method: string; url: string; headers: Record<string, string>; body: string | null };
  response: { status: number; headers: Record<string, string>; body: string | null };
  /** Issue time (ms) of the bearer token the call carried, when it carried one of this client's. */
  tokenIssuedAtMs: number | null;
  /** What the sandbox did beyond answering normally. */
  behaviour: "revoked" | "rate_limited" | "delayed" | "client_closed" | "fault" | "reset" | null;
  /** The call's place in the fault plan armed for its client (docs/design.md §14), and the fault it got. */
  plan?: PlannedCall | null;
}

/** A call counted in an armed fault plan: its plan, its number among the calls of its kind, its fault. */
export interface PlannedCall {
  planId: string;
  /** 1 for the first call of its kind after the plan was armed. */
  seq: number;
  /** The family applied to this call, or null when the plan names none for it. */
  family: string | null;
  /** The client's timeout (CARD_API_TIMEOUT_MS) the certification was started with. */
  clientTimeoutMs: number;
}

export interface SandboxClientPort {
  /** The client with this id and secret, or undefined (the token endpoint then answers 400 invalid_client). */
  authenticate(clientId: string, clientSecret: string): Promise<RegisteredClient | undefined>;
  /** The client with this id, looked up per request (may be cached briefly). */
  find(clientId: string): Promise<RegisteredClient | undefined>;
  /** Consumes the behaviour armed for this client's inquiry (never for token requests). */
  take(clientId: string, operation: OperationName): Promise<ArmedBehaviour>;
  /** Keeps an authenticated call (a token request that named the right secret, or a call with its token). */
  record(call: SandboxCall): Promise<void>;
  /** Counts a token request naming this client that did not authenticate; nothing of it is kept. */
  refused(clientId: string): Promise<void>;
  /** Counts the call in the client's armed fault plan (per kind) and says its fault; null when none is armed. */
  planCall(clientId: string, operation: OperationName): Promise<PlannedCall | null>;
}

/** What the engine tells the wrapper about a bearer token whose signature holds (expired or not). */
interface TokenOwner {
  clientId: string;
  issuedAtMs: number;
}

export interface RegisteredClientsDeps {
  port: SandboxClientPort;
  handle(request: Request): Promise<Response>;
  tokenOwner(token: string): Promise<TokenOwner | null>;
  localPath(url: string): string | null;
  /** How long the `delay` behaviour holds the answer (30 s). */
  delayMs: number;
  now: () => number;
  /** A token of this client that expires after `seconds` (the short-token fault). */
  issueToken(client: RegisteredClient, seconds: number): Promise<string>;
}

const MAX_RECORDED_BODY = 64 * 1024;

/** Wraps the engine's handler: calls of registered clients get their armed behaviour and are recorded. */
export function withRegisteredClients(
  deps: RegisteredClientsDeps,
): (request: Request, connection?: SandboxConnection) => Promise<Response> {
  return async (request, connection) => {
    const path = deps.localPath(request.url);
    const operation = path === null ? null : (matchOperationPath(path)?.operation ?? null);
    if (operation === null) return deps.handle(request);
    const bodyText = await readBody(request);
    if (bodyText === undefined) {
      return errorResponse(
        413,
        "request_too_large",
        "Request body too large",
        `The body exceeds ${MAX_BODY_BYTES} bytes.`,
      );
    }
    const owner = await attribute(deps, request, operation, bodyText);
    const forward = new Request(request, bodyText === null ? {} : { body: bodyText });
    if (!owner) return deps.handle(forward);
    const client =
      operation === "token"
        ? await deps.port.authenticate(owner.clientId, owner.secret ?? "")
        : await deps.port.find(owner.clientId);
    if (!client) {
      const answered = await deps.handle(forward);
      // Anyone may name a client_id: a token request that did not authenticate is only counted, never kept.
      // Not awaited: the count is written in the background, coalesced with the refusals around it.
      if (operation === "token") void deps.port.refused(owner.clientId).catch(() => undefined);
      return answered;
    }

    const started = deps.now();
    const planned = client.faultPlans
      ? await deps.port.planCall(client.clientId, operation).catch(() => null)
      : null;
    const outcome = await answer(deps, forward, operation, client, owner.issuedAtMs, planned, connection);
    const call = {
      clientId: client.clientId,
      operation,
      startedAtMs: started,
      request,
      bodyText,
      owner,
      planned,
    };
    const keep = await keeper(deps, call, outcome);
    // A streamed fault is kept once its body ended or the client left; the answer cannot wait for that.
    if (outcome.settled) {
      void outcome.settled.then(({ behaviour, endedMs }) => keep(behaviour, endedMs));
      return outcome.response;
    }
    // The call was processed (a transaction may be recorded): it is answered even when keeping it failed.
    await keep(outcome.behaviour, deps.now());
    return outcome.response;
  };
}

interface CallSeen {
  clientId: string;
  operation: OperationName;
  startedAtMs: number;
  request: Request;
  bodyText: string | null;
  owner: Attribution;
  planned: PlannedCall | null;
}

/** Keeps the call through the port as the client saw its answer, once told how it ended. */
async function keeper(
  deps: RegisteredClientsDeps,
  call: CallSeen,
  outcome: Outcome,
): Promise<(behaviour: SandboxCall["behaviour"], endedMs: number) => Promise<void>> {
  const responseBody =
    outcome.body !== undefined
      ? outcome.body
      : await outcome.response
          .clone()
          .text()
          .catch(() => null);
  return (behaviour, endedMs) =>
    deps.port
      .record({
        clientId: call.clientId,
        operation: call.operation,
        startedAtMs: call.startedAtMs,
        durationMs: Math.max(0, endedMs - call.startedAtMs),
        request: {
          method: call.request.method,
          url: call.request.url,
          headers: Object.fromEntries(call.request.headers),
          body: call.bodyText,
        },
        response: {
          status: outcome.status ?? outcome.response.status,
          headers: outcome.status === 0 ? {} : Object.fromEntries(outcome.response.headers),
          body: responseBody === null ? null : responseBody.slice(0, MAX_RECORDED_BODY),
        },
        tokenIssuedAtMs: call.owner.issuedAtMs,
        behaviour,
        plan: call.planned,
      })
      .catch(() => undefined);
}

interface Outcome {
  response: Response;
  behaviour: SandboxCall["behaviour"];
  /** What the client saw, when it differs from the response object (a reset: 0, a cut body). */
  status?: number;
  body?: string | null;
  settled?: FaultOutcome["settled"];
}

async function answer(
  deps: RegisteredClientsDeps,
  request: Request,
  operation: OperationName,
  client: RegisteredClient,
  issuedAtMs: number | null,
  planned: PlannedCall | null,
  connection: SandboxConnection | undefined,
): Promise<Outcome> {
  const revoked =
    operation !== "token" &&
    issuedAtMs !== null &&
    client.revokedBeforeMs !== null &&
    issuedAtMs < client.revokedBeforeMs;
  if (revoked) return { response: revokedToken(), behaviour: "revoked" };
  const family = planned?.family ? findFaultFamily(planned.family) : undefined;
  if (family && planned) {
    return applyFault(family, {
      request,
      handle: deps.handle,
      connection,
      clientTimeoutMs: planned.clientTimeoutMs,
      now: deps.now,
      shortToken: () => deps.issueToken(client, 1),
    });
  }
  if (operation === "token") return { response: await deps.handle(request), behaviour: null };
  const armed = await deps.port.take(client.clientId, operation);
  if (armed === "rate_limited") return { response: rateLimited(), behaviour: "rate_limited" };
  const response = await deps.handle(request);
  if (armed !== "delay") return { response, behaviour: null };
  // The engine has recorded the transaction already; only the answer is held back.
  try {
    await delay(deps.delayMs, request.signal);
  } catch {
    return {
      response: errorResponse(499, "client_closed_request", "Client closed request", "The client gave up."),
      behaviour: "client_closed",
    };
  }
  return { response, behaviour: "delayed" };
}

interface Attribution {
  clientId: string;
  issuedAtMs: number | null;
  /** The secret a token request named (checked before anything of it is kept). */
  secret?: string;
}

/** The client (and the token's issue time) a call belongs to: the token request's client_id, or the bearer token's. */
async function attribute(
  deps: RegisteredClientsDeps,
  request: Request,
  operation: OperationName,
  bodyText: string | null,
): Promise<Attribution | null> {
  if (operation === "token") {
    const credentials = credentialsOf(request.headers.get("authorization"), bodyText);
    return credentials ? { ...credentials, issuedAtMs: null } : null;
  }
  const token = /^Bearer[ ]+(\S+)/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (!token) return null;
  const owner = await deps.tokenOwner(token);
  return owner ? { clientId: owner.clientId, issuedAtMs: owner.issuedAtMs } : null;
}

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** client_id and client_secret as the engine reads them: a JSON body, an OAuth form body, or HTTP Basic. */
function credentialsOf(
  authorization: string | null,
  bodyText: string | null,
): { clientId: string; secret?: string } | null {
  let id: string | undefined;
  let secret: string | undefined;
  const json = parseObject(bodyText);
  if (json) {
    [id, secret] = [text(json.client_id), text(json.client_secret)];
  } else {
    const form = new URLSearchParams(bodyText ?? "");
    const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? "")?.[1];
    const [basicId, basicSecret] = basic ? Buffer.from(basic, "base64").toString("utf8").split(":") : [];
    id = form.get("client_id") ?? safeDecode(basicId);
    secret = form.get("client_secret") ?? safeDecode(basicSecret);
  }
  if (!id || id.length > 200) return null;
  return secret === undefined ? { clientId: id } : { clientId: id, secret };
}

function parseObject(bodyText: string | null): Record<string, unknown> | null {
  if (!bodyText) return null;
  try {
    const parsed: unknown = JSON.parse(bodyText);
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function safeDecode(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The body as text, within the engine's own limit (undefined beyond it); null for a bodiless request. */
async function readBody(request: Request): Promise<string | null | undefined> {
  if (request.body === null || request.method === "GET" || request.method === "HEAD") return null;
  return (await readTextWithLimit(request, MAX_BODY_BYTES)) ?? undefined;
}

function revokedToken(): Response {
  return errorResponse(401, "invalid_token", "Invalid token", "The access token was revoked.", {
    "WWW-Authenticate": 'Bearer error="invalid_token", error_description="The access token was revoked."',
  });
}

function rateLimited(): Response {
  return errorResponse(429, "rate_limited", "Too many requests", "Slow down and retry after 2 seconds.", {
    "Retry-After": "2",
  });
}
