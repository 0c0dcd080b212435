#!/usr/bin/env node
// Card Services API starter client: Node 20+, standard library only. See README.md.
import { randomUUID } from "node:crypto";
import { chmodSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";

export const VERSION = "1.1.0";
const USER_AGENT = `card-api-client-node/${VERSION} (node ${process.version})`;
const TOKEN_PATH = "/reporting/v1/auth/token";
const GIFT_PATH = "/transaction/v1/gift/balance-inquiry";
const BALANCE_PATH = "/transaction/v1/balance-inquiry";
const LOOKUP_PATH = "/transaction/v1/transactions/request-id/";
const DEFAULT_LOCATION = "store-001";
// Renew this long before expiry (half the lifetime for a short one), so a token never expires in flight.
const RENEW_MARGIN_MS = 60_000;
// A Retry-After longer than this is not waited out: the command gives up (exit 1) without calling again.
export const PATIENCE_MS = 60_000;
// Pauses before the 2nd and 3rd try of a token request or a read: never a tight loop against a failing server.
const BACKOFF_MS = [600, 1200];
// A Retry-After given as an HTTP date has whole seconds: wait past the second it names.
const DATE_MARGIN_MS = 1000;
// A Gift Balance Inquiry whose outcome is unknown is sent again (same Request Id) at most this often.
const MAX_GIFT_SENDS = 3;

/** Every error of this client carries the Request Id and transaction id it knows of (null when none). */
export class CardApiError extends Error {
  constructor(message, { requestId = null, transactionId = null, answer = null } = {}) {
    super(message);
    this.name = new.target.name;
    this.requestId = requestId;
    this.transactionId = transactionId;
    this.answer = answer;
  }
}
/** Nobody answered: connection refused or reset, the answer cut short, or no whole answer in time. */
export class UnreachableError extends CardApiError {
  constructor(message, { timedOut = false, stage = null, ...rest } = {}) {
    super(message, rest);
    this.timedOut = timedOut;
    this.stage = stage;
  }
}
/** A Gift Balance Inquiry was sent, and neither its answer nor a lookup said whether it was recorded. */
export class OutcomeUnknownError extends CardApiError {}
/** The API answered, but not with a result: any 3xx, 4xx, or a 5xx a read still got after its retries. */
export class RefusedError extends CardApiError {
  constructor(message, { stage = null, ...rest } = {}) {
    super(message, rest);
    this.status = rest.answer?.status ?? null;
    this.code = rest.answer?.body?.errors?.[0]?.code ?? null;
    this.stage = stage;
  }
}
/** A 429 asked for a wait longer than PATIENCE_MS: nothing more is sent. */
export class RateLimitedError extends RefusedError {}
/** A Gift Balance Inquiry answered response_status "declined": a result, never to be sent again. */
export class DeclinedError extends CardApiError {
  constructor(message, result) {
    super(message, { requestId: result.requestId, transactionId: result.transactionId, answer: result });
    this.result = result;
  }
}
export class ConfigError extends Error {}
export class UsageError extends Error {}

/** The configuration from environment variables (never from a file: the secret stays out of the code). */
export function loadConfig(env = process.env) {
  const need = (name) => {
    const value = env[name];
    if (!value) throw new ConfigError(`${name} is not set`);
    return value;
  };
  const timeoutText = env.CARD_API_TIMEOUT_MS || "10000";
  if (!/^[1-9][0-9]*$/.test(timeoutText))
    throw new ConfigError("CARD_API_TIMEOUT_MS must be a positive integer");
  return {
    authUrl: need("CARD_API_AUTH_URL").replace(/\/+$/, ""),
    baseUrl: need("CARD_API_BASE_URL").replace(/\/+$/, ""),
    clientId: need("CARD_API_CLIENT_ID"),
    clientSecret: need("CARD_API_CLIENT_SECRET"),
    timeoutMs: Number(timeoutText),
    cacheFile: env.CARD_API_TOKEN_CACHE || ".card-api-token.json",
  };
}

/** The body as JSON; its text when it is not JSON (json: false); null when empty. */
function parseBody(text) {
  if (text === "") return { body: null, json: true };
  try {
    return { body: JSON.parse(text), json: true };
  } catch {
    return { body: text, json: false };
  }
}

/** How long a 429 asks to wait (RFC 9110 §10.2.3): seconds or an HTTP date; 1 s when absent or unreadable. */
export function retryAfterMs(header, now = Date.now()) {
  const text = (header ?? "").trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000 + 100;
  const date = Date.parse(text);
  if (text !== "" && !Number.isNaN(date)) return Math.max(date - now, 0) + DATE_MARGIN_MS;
  return 1000;
}

/** An answer whose outcome the client cannot know: a server error, or a success it could not read. */
const outcomeUnknown = (answer) => answer.status >= 500 || (answer.status < 300 && !answer.json);

const transactionIdOf = (body) => {
  const id = body?.data?.transaction_id;
  return typeof id === "string" ? id : null;
};

export class CardApiClient {
  constructor(config) {
    this.config = config;
    this.token = null;
  }

  /** One HTTP exchange, headers and body within one deadline; redirects are answers, never followed. */
  async send(url, init) {
    const origin = new URL(url).origin;
    try {
      const signal = AbortSignal.timeout(this.config.timeoutMs);
      const headers = { "User-Agent": USER_AGENT, Accept: "application/json", ...init.headers };
      const response = await fetch(url, { ...init, headers, signal, redirect: "manual" });
      const parsed = parseBody(await response.text());
      const header = (name) => response.headers.get(name);
      return {
        status: response.status,
        retryAfter: header("retry-after"),
        location: header("location"),
        ...parsed,
      };
    } catch (error) {
      const timedOut = error?.name === "TimeoutError" || error?.name === "AbortError";
      const reason = timedOut
        ? `no answer within ${this.config.timeoutMs} ms`
        : (error?.cause?.code ?? error?.cause?.message ?? error.message);
      throw new UnreachableError(`${origin}: ${reason}`, { timedOut });
    }
  }

  readCache() {
    try {
      const cached = JSON.parse(readFileSync(this.config.cacheFile, "utf8"));
      const ours = cached.auth_url === this.config.authUrl && cached.client_id === this.config.clientId;
      return ours && typeof cached.access_token === "string" && fresh(cached) ? cached : null;
    } catch {
      return null;
    }
  }

  writeCache(token) {
    const temporary = `${this.config.cacheFile}.${process.pid}.tmp`;
    // The lifetime stays in memory: the file holds the six fields every starter client reads.
    const { lifetime_ms: _lifetime, ...kept } = token;
    writeFileSync(temporary, JSON.stringify(kept), { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.config.cacheFile);
  }

  /**
   * API specification §4.1, the only request that carries the secret: at most 3 tries when the endpoint fails (5xx, 429, no
   * answer), spaced by BACKOFF_MS; a 4xx or 3xx is the answer (RefusedError).
   */
  async requestToken() {
    const { authUrl, clientId, clientSecret } = this.config;
    const init = {
      method: "POST",
      headers: { "Content-Type": "application/json; charset=utf-8" },
      body: JSON.stringify({
        client_id: clientId,
        client_secret: clientSecret,
        grant_type: "client_credentials",
      }),
    };
    let failure = "";
    for (let attempt = 0; attempt <= BACKOFF_MS.length; attempt += 1) {
      let answer;
      try {
        answer = await this.send(authUrl + TOKEN_PATH, init);
      } catch (error) {
        failure = error.message;
        if (attempt < BACKOFF_MS.length) await sleep(BACKOFF_MS[attempt]);
        continue;
      }
      const attributes = answer.body?.data?.attributes;
      if (answer.status === 200 && typeof attributes?.access_token === "string") return this.keep(attributes);
      if (answer.status < 500 && answer.status !== 429 && answer.status !== 200)
        throw new RefusedError(`the token request was answered ${answer.status}`, { answer, stage: "token" });
      failure = `the token endpoint answered ${answer.status}`;
      if (attempt === BACKOFF_MS.length) break;
      const wait = answer.status === 429 ? retryAfterMs(answer.retryAfter) : 0;
      if (wait > PATIENCE_MS) throw tooLong(answer, wait, null, "token");
      await sleep(Math.max(wait, BACKOFF_MS[attempt]));
    }
    throw new UnreachableError(`no token after ${BACKOFF_MS.length + 1} requests: ${failure}`, {
      stage: "token",
    });
  }

  keep(attributes) {
    const lifetimeMs = Math.max(0, Number(attributes.expires_in) || 0) * 1000;
    const token = {
      auth_url: this.config.authUrl,
      client_id: this.config.clientId,
      access_token: attributes.access_token,
      token_type: typeof attributes.token_type === "string" ? attributes.token_type : "Bearer",
      scope: typeof attributes.scope === "string" ? attributes.scope : "",
      expires_at: new Date(Date.now() + lifetimeMs).toISOString(),
      lifetime_ms: lifetimeMs,
    };
    this.writeCache(token);
    this.token = token;
    return token;
  }

  /** API specification §5.7: the token in memory, else the cached one, else a new one; renewed before it expires (API specification §5.8). */
  async getToken() {
    if (this.token && fresh(this.token)) return this.token;
    this.token = this.readCache() ?? (await this.requestToken());
    return this.token;
  }

  /**
   * One API call with the duties around it. A 401: one new token, the same call once more (API specification §5.8). A 429: wait
   * Retry-After, then once more (a second 429 is the answer, after its own wait), or give up when it is beyond
   * PATIENCE_MS (RFC 9110). A read (`retry`) is tried
   * up to 3 times when its outcome is unknown; a write never is here (see gift). 403 is never retried.
   */
  async call(method, path, { body, requestId, retry = false } = {}) {
    let token = await this.getToken();
    let renewed = false;
    let waited = false;
    for (let tries = 0; ;) {
      const headers = { Authorization: `Bearer ${token.access_token}` };
      if (body !== undefined) headers["Content-Type"] = "application/json";
      if (requestId !== undefined) headers["X-Request-Id"] = requestId;
      const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
      let answer;
      try {
        answer = await this.send(this.config.baseUrl + path, init);
      } catch (error) {
        if (!retry || tries >= BACKOFF_MS.length) throw error;
        await sleep(BACKOFF_MS[tries++]);
        continue;
      }
      if (answer.status === 401 && !renewed) {
        renewed = true;
        token = await this.requestToken();
      } else if (answer.status === 429) {
        const wait = retryAfterMs(answer.retryAfter);
        if (wait > PATIENCE_MS) throw tooLong(answer, wait, requestId);
        // A second 429 is the answer, given once its window has passed: no next command calls inside it.
        await sleep(wait);
        if (waited) return answer;
        waited = true;
      } else if (retry && outcomeUnknown(answer) && tries < BACKOFF_MS.length) {
        await sleep(BACKOFF_MS[tries++]);
      } else return answer;
    }
  }

  /** API specification §4.4 Balance Inquiry: records nothing, so it is retried when its answer is lost. */
  async balance(card, location = DEFAULT_LOCATION) {
    const answer = await this.call("POST", BALANCE_PATH, { body: cardBody(card, location), retry: true });
    return settle(answer, null);
  }

  /** Lookup Transaction by Request Id (API specification §4.3.3); a 404 (never recorded) is a RefusedError with status 404. */
  async lookup(requestId) {
    const answer = await this.call("GET", LOOKUP_PATH + encodeURIComponent(requestId), { retry: true });
    return settle(answer, requestId);
  }

  /**
   * API specification §4.3 Gift Balance Inquiry under a fresh Request Id (API specification §8). When its outcome is unknown (5xx, no answer in time,
   * a reset, a cut or unreadable body), nothing else happens for that card before the outcome is learned (API specification §4.3.3):
   * a lookup by the Request Id; when that finds nothing, the same request with the same Request Id once more.
   */
  async gift(card, location = DEFAULT_LOCATION, requestId = randomUUID()) {
    const body = cardBody(card, location);
    const recovery = {};
    let why = "";
    for (let sends = 1; ; sends += 1) {
      let duplicate = false;
      try {
        const answer = await this.call("POST", GIFT_PATH, { body, requestId });
        if (sends === 1) recovery.first = answer;
        else recovery.resent = { status: answer.status, body: answer.body };
        // A 409 to a resend: the first one was recorded (or is still in flight), which only a lookup can tell.
        duplicate = sends > 1 && answer.status === 409;
        if (!outcomeUnknown(answer) && !duplicate)
          return settle(answer, requestId, sends > 1 ? recovery : {});
        why ||= `the inquiry was answered ${answer.status}`;
      } catch (error) {
        if (!(error instanceof UnreachableError) || error.stage === "token") throw withId(error, requestId);
        why ||= error.message;
        if (sends === 1 && error.timedOut) recovery.timed_out = true;
      }
      let lookup;
      try {
        lookup = await this.call("GET", LOOKUP_PATH + encodeURIComponent(requestId), { retry: true });
      } catch (error) {
        throw new OutcomeUnknownError(`${why}; the lookup: ${error.message}`, { requestId });
      }
      recovery.lookup = { status: lookup.status, body: lookup.body };
      if (lookup.status === 200 && lookup.json) return recovered(recovery, requestId, lookup);
      // 404: never recorded, so the same request under the same Request Id cannot record it twice.
      if (lookup.status !== 404 || duplicate || sends >= MAX_GIFT_SENDS)
        throw new OutcomeUnknownError(`${why}; the lookup answered ${lookup.status}`, { requestId });
    }
  }
}

function fresh(token) {
  const margin = Math.min(RENEW_MARGIN_MS, (token.lifetime_ms ?? Infinity) / 2);
  return Date.parse(token.expires_at) - Date.now() > margin;
}

function tooLong(answer, waitMs, requestId, stage = null) {
  const message = `asked to wait ${Math.round(waitMs / 1000)} s (Retry-After: ${answer.retryAfter}), beyond ${PATIENCE_MS / 1000} s`;
  return new RateLimitedError(message, { answer, requestId, stage });
}

const withId = (error, requestId) => Object.assign(error, { requestId });

/** A final answer: a result, or the error that tells the caller what kind of answer it was. */
function settle(answer, requestId, recovery = {}) {
  const { timed_out, lookup, resent } = recovery;
  const result = {
    status: answer.status,
    requestId,
    transactionId: transactionIdOf(answer.body),
    body: answer.body,
    timed_out,
    lookup,
    resent,
  };
  if (answer.status >= 300) {
    const refused = new RefusedError(`answered ${answer.status}`, { answer, requestId });
    refused.result = { ...result, location: answer.location ?? undefined };
    throw refused;
  }
  if (answer.body?.data?.response_status === "declined") throw new DeclinedError("declined", result);
  return result;
}

/** A Gift Balance Inquiry whose outcome a lookup told: the inquiry's own answer, and what the lookup found. */
function recovered({ first, timed_out, lookup, resent }, requestId, found) {
  const result = {
    status: first?.status ?? null,
    requestId,
    transactionId: transactionIdOf(found.body),
    body: first?.body ?? null,
    timed_out,
    lookup,
    resent,
  };
  if (found.body?.data?.response_status === "declined") throw new DeclinedError("declined", result);
  return result;
}

function cardBody(card, location) {
  return {
    data: { entry_mode: "keyed", card_number: card, pin_mode: "none", originator: { location_id: location } },
  };
}

const USAGE = `usage: node client.mjs token
       node client.mjs balance CARD [--location ID]
       node client.mjs gift CARD [--location ID] [--request-id ID]
       node client.mjs lookup REQUEST_ID`;

/** The command line: [command, positional, options]. */
export function parseArgs(argv) {
  const [command, ...rest] = argv;
  const allowed = { token: [], balance: ["--location"], gift: ["--location", "--request-id"], lookup: [] };
  if (!command || !(command in allowed)) throw new UsageError(`unknown command: ${command ?? "(none)"}`);
  const positional = [];
  const options = {};
  for (let i = 0; i < rest.length; i += 1) {
    if (rest[i].startsWith("--")) {
      if (!allowed[command].includes(rest[i]) || rest[i + 1] === undefined)
        throw new UsageError(`bad option ${rest[i]}`);
      options[rest[i].slice(2)] = rest[i + 1];
      i += 1;
    } else positional.push(rest[i]);
  }
  if (positional.length !== (command === "token" ? 0 : 1))
    throw new UsageError(`wrong arguments for ${command}`);
  return { command, argument: positional[0], options };
}

/** The printed object: status, request_id, transaction_id, body first, then what the recovery did. */
function output(result, stage) {
  const printed = {
    status: result.status,
    request_id: result.requestId,
    transaction_id: result.transactionId,
    body: result.body,
  };
  for (const [key, value] of [
    ["location", result.location],
    ["stage", stage],
    ["timed_out", result.timed_out],
    ["lookup", result.lookup],
    ["resent", result.resent],
  ])
    if (value !== undefined && value !== null) printed[key] = value;
  return printed;
}

async function runCommand(client, { command, argument, options }) {
  if (command === "token") {
    const { token_type, scope, expires_at } = await client.getToken();
    const expires_in = Math.max(0, Math.floor((Date.parse(expires_at) - Date.now()) / 1000));
    return { token_type, scope, expires_at, expires_in };
  }
  const location = options.location ?? DEFAULT_LOCATION;
  if (command === "balance") return output(await client.balance(argument, location));
  if (command === "lookup") return output(await client.lookup(argument));
  return output(await client.gift(argument, location, options["request-id"]));
}

/** Runs one command; returns the exit code (API specification §12: 0 answered, 1 no answer or no patience, 2 usage). */
export async function main(argv = process.argv.slice(2), env = process.env) {
  let printed;
  try {
    const parsed = parseArgs(argv);
    printed = await runCommand(new CardApiClient(loadConfig(env)), parsed);
  } catch (error) {
    if (error instanceof DeclinedError) printed = output(error.result);
    else if (error instanceof RefusedError && !(error instanceof RateLimitedError)) {
      const { status, requestId, answer } = error;
      const location = answer.location ?? undefined;
      const result = error.result ?? { status, requestId, transactionId: null, body: answer.body, location };
      printed = output(result, error.stage);
    } else if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
      return 2;
    } else {
      // No answer, an unknown outcome, no patience, configuration, a cache that cannot be written: never a trace.
      const id = !error?.requestId
        ? ""
        : error instanceof OutcomeUnknownError
          ? ` (Request Id ${error.requestId}: learn its outcome with \`lookup ${error.requestId}\`)`
          : ` (Request Id ${error.requestId})`;
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}${id}\n`);
      return 1;
    }
  }
  process.stdout.write(`${JSON.stringify(printed)}\n`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
