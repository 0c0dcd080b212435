/**
 * An undici dispatch handler that collects one answer in memory: the status, the headers (lower-case names,
 * repeated ones joined with ", ") and the body up to a byte limit. Past the limit the connection is dropped and
 * the body flagged as cut, so the console never buffers without bound. The caller's signal ends the request at
 * any point: before it has a connection the promise is rejected at once, after that the connection is dropped.
 */
import "server-only";
import type { Dispatcher } from "undici";
import type { UpstreamResponse } from "./transport";

type Abort = (reason: Error) => void;

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("The upstream request was aborted.");
}

/** Own properties only (fromEntries): a header named "__proto__" stays a header. */
function headerRecord(raw: Buffer[]): Record<string, string> {
  const joined = new Map<string, string>();
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!.toString("latin1").toLowerCase();
    const value = raw[index + 1]!.toString("utf8");
    const earlier = joined.get(name);
    joined.set(name, earlier === undefined ? value : `${earlier}, ${value}`);
  }
  return Object.fromEntries(joined);
}

export function bufferedResponse(
  signal: AbortSignal,
  limit: number,
  resolve: (response: UpstreamResponse) => void,
  reject: (error: unknown) => void,
): Dispatcher.DispatchHandlers {
  let status = 0;
  let headers: Record<string, string> = {};
  const parts: Buffer[] = [];
  let size = 0;
  let abortRequest: Abort | undefined;
  let settled = false;

  const settle = (): boolean => {
    if (settled) return false;
    settled = true;
    signal.removeEventListener("abort", onAbort);
    return true;
  };
  const answer = (truncated: boolean) => {
    if (settle()) resolve({ status, headers, body: Buffer.concat(parts).toString("utf8"), truncated });
  };
  const fail = (error: unknown) => {
    if (settle()) reject(error);
  };
  function onAbort(): void {
    if (abortRequest) abortRequest(abortReason(signal));
    else fail(abortReason(signal));
  }
  signal.addEventListener("abort", onAbort, { once: true });
  if (signal.aborted) onAbort();

  return {
    onConnect(abort) {
      abortRequest = abort;
      if (signal.aborted) abort(abortReason(signal));
    },
    onHeaders(statusCode, rawHeaders) {
      // An informational (1xx) answer comes before the real one.
      if (statusCode >= 200) {
        status = statusCode;
        headers = headerRecord(rawHeaders);
      }
      return true;
    },
    onData(chunk) {
      const room = limit - size;
      if (chunk.byteLength <= room) {
        parts.push(chunk);
        size += chunk.byteLength;
        return true;
      }
      parts.push(chunk.subarray(0, room));
      answer(true);
      abortRequest?.(new Error("The upstream body is over the limit."));
      return false;
    },
    onComplete() {
      answer(false);
    },
    onError: fail,
  };
}
