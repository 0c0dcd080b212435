/**
 * Request guards of every console API route: same-origin Origin and JSON content type on mutating calls,
 * a bounded body, and validation that answers 400 with per-field details. Bad input never reaches a 500.
 */
import "server-only";
import type { z } from "zod";
import { ApiError } from "@/lib/server/util/errors";
import { publicOriginForHost, requestHost, requestOrigin } from "@/lib/server/config/host-trust";
import type { ServerConfig } from "@/lib/server/config";
import { readTextWithLimit } from "@/lib/shared/body";
import { pathLabel, unacceptableText, validateInput, validationError } from "@/lib/server/util/validation";

export { validateInput, zodFieldErrors } from "@/lib/server/util/validation";

const MAX_BODY_BYTES = 16 * 1024;

/**
 * Cross-site, `null` and absent origins are refused: a mutating call must come from the console's own pages,
 * on the (already accepted) host it was addressed to. The expected origin comes from that host and the
 * protocol, or from PUBLIC_URL when the host is a public one (TLS ended by a proxy not listed as trusted).
 */
export function assertSameOrigin(
  request: Request,
  config: Pick<ServerConfig, "publicOrigins" | "trustedProxies" | "authMode">,
): void {
  const origin = request.headers.get("origin");
  const expected = requestOrigin(request, config);
  const host = requestHost(request, config);
  const publicOrigin = host ? publicOriginForHost(host, config) : null;
  let actual: string | null = null;
  try {
    actual = origin && origin !== "null" ? new URL(origin).origin : null;
  } catch {
    actual = null;
  }
  if (!actual || !expected || (actual !== expected && actual !== publicOrigin)) {
    throw new ApiError(
      "invalid_origin",
      origin
        ? `Origin ${JSON.stringify(origin.slice(0, 200))} is not this console's origin${expected ? ` (${expected})` : ""}.`
        : `Mutating calls need an Origin header with this console's origin${expected ? ` (${expected})` : ""}.`,
    );
  }
}

/** `application/json`, optionally with `charset=utf-8`. */
function assertJsonContentType(request: Request): void {
  const value = request.headers.get("content-type") ?? "";
  const [mediaType = "", ...parameters] = value.split(";");
  const charset = parameters
    .map((parameter) => parameter.trim().toLowerCase())
    .find((parameter) => parameter.startsWith("charset="));
  if (mediaType.trim().toLowerCase() !== "application/json" || (charset && charset !== "charset=utf-8")) {
    throw new ApiError(
      "unsupported_media_type",
      "Send the body as JSON with Content-Type: application/json.",
    );
  }
}

/** A media type a route's body may have: JSON, or an upload (an evidence zip, a CSV of cards). */
export type BodyMediaType = "application/json" | "application/zip" | "text/csv";

/** The request's media type, lower case, without parameters. */
export function bodyMediaType(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** The body has one of the route's media types (JSON as assertJsonContentType checks it). */
export function assertBodyType(request: Request, accepted: BodyMediaType | readonly BodyMediaType[]): void {
  const types: readonly BodyMediaType[] = typeof accepted === "string" ? [accepted] : accepted;
  const value = bodyMediaType(request);
  if (types.length === 1 && types[0] === "application/json") return assertJsonContentType(request);
  if (value === "application/json" && types.includes("application/json"))
    return assertJsonContentType(request);
  if (!types.includes(value as BodyMediaType)) {
    throw new ApiError("unsupported_media_type", `Send the body with Content-Type: ${types.join(" or ")}.`);
  }
}

function tooLarge(): ApiError {
  return new ApiError("payload_too_large", `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
}

/** The body as text, refusing more than MAX_BODY_BYTES whatever Content-Length says. */
export async function readBodyText(request: Request): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  let text: string | null;
  try {
    // With a Content-Length, Node's HTTP parser delivers exactly that many bytes.
    text =
      declared !== null && /^\d+$/.test(declared)
        ? await request.text()
        : await readTextWithLimit(request, MAX_BODY_BYTES);
  } catch {
    // The client went away mid-body (aborted, reset): its failure, not the server's.
    throw new ApiError("request_aborted", "The client closed the connection before the whole body arrived.");
  }
  if (text === null) throw tooLarge();
  return text;
}

type Unacceptable = Record<string, string[]>;

/** Every string (key or value) the console may not take in (unacceptableText), by its path. */
function unacceptablePaths(value: unknown, path: PropertyKey[] = [], found: Unacceptable = {}): Unacceptable {
  if (Object.keys(found).length >= 20 || path.length > 32) return found;
  if (typeof value === "string") {
    const why = unacceptableText(value);
    if (why) found[pathLabel(path)] = [why];
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => unacceptablePaths(item, [...path, index], found));
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const why = unacceptableText(key);
      if (why) found[pathLabel([...path, key])] = [why];
      unacceptablePaths(item, [...path, key], found);
    }
  }
  return found;
}

/** Parses JSON text and validates it: 400 `invalid_json` or 400 `validation_failed` with field details. */
export function parseJsonBody<S extends z.ZodType>(text: string, schema: S): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON.");
  }
  const unacceptable = unacceptablePaths(value);
  if (Object.keys(unacceptable).length > 0) throw validationError(unacceptable);
  return validateInput(value, schema);
}
