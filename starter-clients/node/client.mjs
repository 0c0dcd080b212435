#!/usr/bin/env node
// Card Services API starter client: Node 20+, standard library only. See README.md.
import { randomUUID } from "node:crypto";
import { chmodSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const TOKEN_PATH = "/reporting/v1/auth/token";
const GIFT_PATH = "/transaction/v1/gift/balance-inquiry";
const BALANCE_PATH = "/transaction/v1/balance-inquiry";
const LOOKUP_PATH = "/transaction/v1/transactions/request-id/";
const DEFAULT_LOCATION = "store-001";
// Renew this long before expiry, so a token never expires between the check and the call.
const RENEW_MARGIN_MS = 60_000;
const MAX_RETRY_AFTER_MS = 60_000;

/** No answer in time, or none at all: the caller decides what that means. */
export class NoAnswerError extends Error {
  constructor(message, { timedOut = false, url = "" } = {}) {
    super(message);
    this.timedOut = timedOut;
    this.url = url;
  }
}

export class ConfigError extends Error {}

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

function parseBody(text) {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** How long a 429 asks to wait: seconds or an HTTP date; 1 s when unreadable, never more than a minute. */
export function retryAfterMs(header, now = Date.now()) {
  let ms = 1000;
  if (header && /^\s*\d+\s*$/.test(header)) ms = Number(header) * 1000;
  else if (header && !Number.isNaN(Date.parse(header))) ms = Date.parse(header) - now;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

export class CardApiClient {
  constructor(config) {
    this.config = config;
    this.token = null;
  }

  async send(url, init) {
    let response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(this.config.timeoutMs) });
      return { status: response.status, headers: response.headers, body: parseBody(await response.text()) };
    } catch (error) {
      const timedOut = error?.name === "TimeoutError" || error?.name === "AbortError";
      const reason = timedOut
        ? `no answer within ${this.config.timeoutMs} ms`
        : (error?.cause?.code ?? error.message);
      throw new NoAnswerError(`${new URL(url).origin}: ${reason}`, { timedOut, url });
    }
  }

  readCache() {
    try {
      const cached = JSON.parse(readFileSync(this.config.cacheFile, "utf8"));
      const fresh = Date.parse(cached.expires_at) - Date.now() > RENEW_MARGIN_MS;
      const ours = cached.auth_url === this.config.authUrl && cached.client_id === this.config.clientId;
      return fresh && ours && typeof cached.access_token === "string" ? cached : null;
    } catch {
      return null;
    }
  }

  writeCache(token) {
    const temporary = `${this.config.cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(token), { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.config.cacheFile);
  }

  /** API specification §4.1: the only request that carries the secret. Returns the token, or the error answer. */
  async requestToken() {
    const { authUrl, clientId, clientSecret } = this.config;
    const answer = await this.send(authUrl + TOKEN_PATH, {
      method: "POST",
      headers: { "Content-Type": "application/json; charset=utf-8", Accept: "application/json" },
      body: JSON.stringify({
        client_id: clientId,
        client_secret: clientSecret,
        grant_type: "client_credentials",
      }),
    });
    const attributes = answer.body?.data?.attributes;
    if (answer.status !== 200 || typeof attributes?.access_token !== "string") return { error: answer };
    const token = {
      auth_url: authUrl,
      client_id: clientId,
      access_token: attributes.access_token,
      token_type: attributes.token_type ?? "Bearer",
      scope: attributes.scope ?? "",
      expires_at: new Date(Date.now() + Number(attributes.expires_in ?? 0) * 1000).toISOString(),
    };
    this.writeCache(token);
    this.token = token;
    return { token };
  }

  /** API specification §5.7: the token in memory, else the cached one, else a new one. */
  async getToken() {
    if (this.token && Date.parse(this.token.expires_at) - Date.now() > RENEW_MARGIN_MS)
      return { token: this.token };
    const cached = this.readCache();
    if (cached) {
      this.token = cached;
      return { token: cached };
    }
    return this.requestToken();
  }

  /** One API call with the duties around it: 401 → one new token and once more; 429 → wait, once more. */
  async call(method, path, { body, requestId } = {}) {
    let got = await this.getToken();
    if (got.error) return { ...got.error, stage: "token" };
    const attempt = (token) => {
      const headers = { Authorization: `Bearer ${token.access_token}`, Accept: "application/json" };
      if (body !== undefined) headers["Content-Type"] = "application/json";
      if (requestId !== undefined) headers["X-Request-Id"] = requestId;
      const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
      return this.send(this.config.baseUrl + path, init);
    };
    let answer = await attempt(got.token);
    if (answer.status === 401) {
      got = await this.requestToken();
      if (got.error) return { ...got.error, stage: "token" };
      answer = await attempt(got.token);
    }
    if (answer.status === 429) {
      await new Promise((done) => setTimeout(done, retryAfterMs(answer.headers.get("retry-after"))));
      answer = await attempt(this.token);
    }
    return answer;
  }

  balance(card, location = DEFAULT_LOCATION) {
    return this.call("POST", BALANCE_PATH, { body: cardBody(card, location) });
  }

  lookup(requestId) {
    return this.call("GET", LOOKUP_PATH + encodeURIComponent(requestId));
  }

  /** API specification §4.3: a fresh Request Id per inquiry; API specification §4.3.3: no answer in time → look it up before anything else. */
  async gift(card, location = DEFAULT_LOCATION, requestId = randomUUID()) {
    try {
      return {
        requestId,
        ...(await this.call("POST", GIFT_PATH, { body: cardBody(card, location), requestId })),
      };
    } catch (error) {
      // Only the inquiry itself may have been recorded without our hearing of it; a token request may not.
      const inquiryLost = error instanceof NoAnswerError && error.timedOut && error.url.endsWith(GIFT_PATH);
      if (!inquiryLost) throw error;
      const lookup = await this.lookup(requestId);
      return { requestId, status: null, body: null, timedOut: true, lookup };
    }
  }
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

export class UsageError extends Error {}

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

function callOutput(answer, requestId) {
  const output = { status: answer.status, request_id: requestId ?? null, body: answer.body };
  if (answer.stage) output.stage = answer.stage;
  return output;
}

async function runCommand(client, { command, argument, options }) {
  if (command === "token") {
    const got = await client.getToken();
    if (got.error) return { status: got.error.status, body: got.error.body };
    const { token_type, scope, expires_at } = got.token;
    const expires_in = Math.max(0, Math.floor((Date.parse(expires_at) - Date.now()) / 1000));
    return { token_type, scope, expires_at, expires_in };
  }
  if (command === "balance") return callOutput(await client.balance(argument, options.location));
  if (command === "lookup") return callOutput(await client.lookup(argument), argument);
  const answer = await client.gift(argument, options.location, options["request-id"]);
  if (!answer.timedOut) return callOutput(answer, answer.requestId);
  return {
    ...callOutput(answer, answer.requestId),
    timed_out: true,
    lookup: { status: answer.lookup.status, body: answer.lookup.body },
  };
}

/** Runs one command; returns the exit code. */
export async function main(argv = process.argv.slice(2), env = process.env) {
  try {
    const parsed = parseArgs(argv);
    const client = new CardApiClient(loadConfig(env));
    process.stdout.write(`${JSON.stringify(await runCommand(client, parsed))}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
      return 2;
    }
    // Configuration, no answer, or a token cache that cannot be written: the reason, never a stack trace.
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
