/** JSON:API response helpers and bounded body reading for the sandbox. */

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
import { MAX_BODY_BYTES } from "./limits";
import { readTextWithLimit } from "@/lib/shared/body";
import { acquireHold } from "./holds";

export { MAX_BODY_BYTES };

interface JsonApiError {
  status: string;
  code: string;
  title: string;
  detail: string;
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": JSON_CONTENT_TYPE, "Cache-Control": "no-store", ...headers },
  });
}

/** `{"errors":[{"status","code","title","detail"}]}` — the sandbox's one error shape. */
export function errorResponse(
  status: number,
  code: string,
  title: string,
  detail: string,
  headers: Record<string, string> = {},
): Response {
  const error: JsonApiError = { status: String(status), code, title, detail };
  return jsonResponse(status, { errors: [error] }, headers);
}

export function methodNotAllowed(method: string, allowed: readonly string[]): Response {
  return errorResponse(
    405,
    "method_not_allowed",
    "Method not allowed",
    `${method} is not allowed here; use ${allowed.join(" or ")}.`,
    { Allow: allowed.join(", ") },
  );
}

/** True for `application/json`, with or without parameters such as `charset=utf-8`. */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const [mediaType = ""] = value.split(";");
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(value)?.[1];
  return mediaType.trim().toLowerCase() === "application/json" && (!charset || /^utf-8$/i.test(charset));
}

export type JsonBodyResult = { ok: true; value: unknown } | { ok: false; response: Response };

/** Reads a JSON body: 400 for a wrong content type or invalid JSON, 413 beyond MAX_BODY_BYTES. */
export async function readJsonBody(request: Request): Promise<JsonBodyResult> {
  if (!isJsonContentType(request.headers.get("content-type"))) {
    return {
      ok: false,
      response: errorResponse(
        400,
        "invalid_content_type",
        "Unsupported content type",
        "Send the body as JSON with Content-Type: application/json; charset=utf-8.",
      ),
    };
  }
  const text = await readTextWithLimit(request, MAX_BODY_BYTES);
  if (text === null) {
    return {
      ok: false,
      response: errorResponse(
        413,
        "request_too_large",
        "Request body too large",
        `The body exceeds ${MAX_BODY_BYTES} bytes.`,
      ),
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return {
      ok: false,
      response: errorResponse(400, "invalid_json", "Invalid JSON", "The request body is not valid JSON."),
    };
  }
}

/**
 * Holds the answer back: resolves after `ms`, or rejects with the signal's reason as soon as it aborts. Rejects
 * at once when the request's caller, or the sandbox, already holds as many answers as it may (./holds).
 */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  const hold = acquireHold();
  if (hold === "refused") return Promise.reject(new Error("too many answers held back"));
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  }).finally(() => hold?.release());
}
