/**
 * How the card API client reaches an upstream. One small interface with two implementations, so the
 * embedded sandbox (in-process, no network) and a real upstream (pooled keep-alive undici Agent) share one
 * code path. No implementation follows redirects: a 3xx is
 * returned as the upstream's answer.
 */
import "server-only";
import type { Dispatcher } from "undici";
import { ApiError, brandedInstanceCheck } from "@/lib/server/util/errors";
import { bufferedResponse } from "./buffered-response";

interface UpstreamRequest {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface UpstreamResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** True when the body was cut at MAX_UPSTREAM_BODY_BYTES. */
  truncated: boolean;
}

export type Transport = (request: UpstreamRequest) => Promise<UpstreamResponse>;

/** An upstream body larger than this is cut (and flagged): the console must not buffer without bound. */
const MAX_UPSTREAM_BODY_BYTES = 1024 * 1024;

/** Own properties only (fromEntries): a header named "__proto__" stays a header. */
function headersToRecord(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers.entries());
}

/**
 * The embedded sandbox, called in-process: a Web Request in, a Response out, no socket. Its body is already
 * in memory, so it is read whole (no stream plumbing) and cut to the same limit afterwards.
 */
export function inProcessTransport(handle: (request: Request) => Promise<Response>): Transport {
  return async ({ method, url, headers, body, signal }) => {
    let request: Request;
    try {
      request = new Request(url, { method, headers, body, signal, redirect: "manual" });
    } catch (error) {
      throw localRefusal(error);
    }
    const response = await handle(request);
    const text = await response.text();
    const truncated =
      text.length * 3 > MAX_UPSTREAM_BODY_BYTES && Buffer.byteLength(text) > MAX_UPSTREAM_BODY_BYTES;
    return {
      status: response.status,
      headers: headersToRecord(response.headers),
      body: truncated ? Buffer.from(text).subarray(0, MAX_UPSTREAM_BODY_BYTES).toString("utf8") : text,
      truncated,
    };
  };
}

/**
 * A real upstream over HTTP(S) through an undici dispatcher (the process's pooled Agent, lib/server/root). The
 * answer is collected by a dispatch handler (./buffered-response) rather than through `request()`'s body stream:
 * it is read whole anyway, and a stream per call is most of undici's own cost.
 */
export function undiciTransport(dispatcher: Dispatcher): Transport {
  return ({ method, url, headers, body, signal }) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      dispatcher.dispatch(
        { origin: target.origin, path: target.pathname + target.search, method, headers, body },
        bufferedResponse(signal, MAX_UPSTREAM_BODY_BYTES, resolve, (error) =>
          reject(LOCAL_REFUSAL_CODES.has(codeOf(error)) ? localRefusal(error) : error),
        ),
      );
    });
}

/** undici's own refusals of a request it will not build: nothing left the process. */
const LOCAL_REFUSAL_CODES: ReadonlySet<string | undefined> = new Set([
  "UND_ERR_INVALID_ARG",
  "UND_ERR_NOT_SUPPORTED",
]);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * A request the HTTP client refused to build (a header or value it does not send): 400 in the one error shape,
 * never a 502 or an upstream failure in the metrics, since the upstream was never asked.
 */
function localRefusal(error: unknown): ApiError {
  const why = error instanceof Error ? error.message : String(error);
  return new ApiError(
    "bad_request",
    `The console's HTTP client refused to send this request (${why.slice(0, 200)}); nothing was sent upstream.`,
  );
}

// ---------- failures ----------

export type UpstreamFailureKind = "timeout" | "refused" | "tls" | "network";

const UPSTREAM_FAILURE_BRAND = Symbol.for("card-services-console.UpstreamFailure");
const isUpstreamFailure = brandedInstanceCheck(UPSTREAM_FAILURE_BRAND);

/** The upstream did not answer. Never carries request data: only what went wrong and where. */
export class UpstreamFailure extends Error {
  readonly [UPSTREAM_FAILURE_BRAND] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isUpstreamFailure(value);
  }

  constructor(
    readonly kind: UpstreamFailureKind,
    readonly errorCode: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = "UpstreamFailure";
  }
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$|HOSTNAME_MISMATCH)/;

function errorCodes(error: unknown): { codes: string[]; messages: string[] } {
  const codes: string[] = [];
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (typeof current === "object") {
      const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
      if (typeof code === "string") codes.push(code);
      if (typeof message === "string") messages.push(message);
      current = cause;
    } else break;
  }
  return { codes, messages };
}

/** Sorts a transport error into timeout, refused, TLS or other network failure. */
export function classifyTransportError(error: unknown): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  const { codes, messages } = errorCodes(error);
  const tlsCode = codes.find((code) => TLS_CODE.test(code));
  const text = messages.join(" ");
  if (tlsCode || /\b(ssl|tls|certificate)\b/i.test(text)) {
    return new UpstreamFailure("tls", tlsCode, "The TLS handshake with the upstream failed.");
  }
  if (codes.includes("ECONNREFUSED")) {
    return new UpstreamFailure("refused", "ECONNREFUSED", "The upstream refused the connection.");
  }
  if (codes.some((code) => code === "UND_ERR_CONNECT_TIMEOUT" || code === "ETIMEDOUT")) {
    return new UpstreamFailure("timeout", codes[0], "Connecting to the upstream timed out.");
  }
  const code = codes.find((candidate) => /^(E[A-Z]+|UND_ERR_\w+)$/.test(candidate));
  return new UpstreamFailure("network", code, "The upstream could not be reached or closed the connection.");
}
