/**
 * Runs before every page and /sandbox route (not /api: see `config.matcher` below): refuses a Host the console does not answer to (DNS
 * rebinding), answers malformed %-encoding (which Next itself would turn into a plain-text 500) with a 400
 * in the error shape (TRACE never gets here: scripts/serve.mjs refuses it), hands a method Next's route handlers
 * do not know (PROPFIND, MKCOL, …) under /sandbox/ to the sandbox itself (Next would answer an empty 400), and sets the security headers with a fresh CSP nonce that the pages'
 * inline scripts (Next's own and the theme script) carry.
 */
import { NextResponse, type NextRequest } from "next/server";
import { consoleRoot } from "@/lib/server/root";
import { ApiError } from "@/lib/server/util/errors";
import { assertAcceptedHost, isSecureRequest } from "@/lib/server/config/host-trust";
import { NONCE_HEADER, newNonce, securityHeaders } from "@/lib/server/http/security-headers";
import { logger } from "@/lib/server/util/logger";
import { isEmbeddedSandboxEnabled, sandboxDisabledResponse } from "@/lib/server/root/embedded-sandbox";

/** The error shape, logged like an API call (Next would answer without a log line). */
function refuse(request: NextRequest, error: ApiError): NextResponse {
  logger.info(
    {
      method: request.method.slice(0, 16),
      path: request.nextUrl.pathname.slice(0, 200),
      status: error.status,
      code: error.code,
    },
    "refused before routing",
  );
  return NextResponse.json(error.toBody(), {
    status: error.status,
    headers: { "Cache-Control": "no-store", ...error.headers },
  });
}

/** The methods Next hands to a route handler; any other it answers with an empty 400. */
const ROUTE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The sandbox's own answer (405 with its Allow, or 404) to a method Next would not hand to its route. */
async function sandboxAnswer(request: NextRequest): Promise<Response> {
  if (!isEmbeddedSandboxEnabled()) {
    return sandboxDisabledResponse();
  }
  return consoleRoot().embeddedSandbox().handle(request);
}

/** Whether every %-escape of the raw path decodes (Next answers 500 when one does not). */
function hasMalformedEncoding(rawUrl: string): boolean {
  const path = rawUrl.replace(/^[a-z]+:\/\/[^/]*/i, "").split("?")[0] ?? "";
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

export async function proxy(request: NextRequest): Promise<Response> {
  const { config } = consoleRoot();
  try {
    assertAcceptedHost(request, config);
  } catch (error) {
    if (error instanceof ApiError) return refuse(request, error);
    throw error;
  }
  if (hasMalformedEncoding(request.url)) {
    return refuse(request, new ApiError("bad_request", "The request path has malformed %-encoding."));
  }
  if (!ROUTE_METHODS.has(request.method) && request.nextUrl.pathname.startsWith("/sandbox/")) {
    return sandboxAnswer(request);
  }

  const nonce = newNonce();
  const headers = securityHeaders(nonce, {
    secure: isSecureRequest(request, config),
    dev: process.env.NODE_ENV === "development",
  });
  const forwarded = new Headers(request.headers);
  forwarded.set(NONCE_HEADER, nonce);
  // Next reads the nonce for its own scripts from the request's CSP header.
  forwarded.set("content-security-policy", headers["Content-Security-Policy"] as string);
  const response = NextResponse.next({ request: { headers: forwarded } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Static build output is public and the same for everyone: no host or nonce work for it. /api is skipped too:
  // every /api path reaches an apiRoute (app/api/[...path] catches the rest), which checks the Host itself;
  // scripts/serve.mjs answers malformed %-encoding for every path; the API's own CSP and COOP are static
  // (next.config.js), and a JSON answer runs no script that a nonce would admit. Skipping Next's middleware
  // layer saves about 0.5 ms of CPU per API call and the body buffering it needs.
  matcher: ["/((?!api/|_next/static|_next/image).*)"],
};
