/**
 * Which names the console answers to (DNS rebinding): the `Host` a request was addressed
 * to must be one of PUBLIC_URL's origins, or a loopback name when AUTH_MODE is none; `X-Forwarded-Host`
 * and `X-Forwarded-Proto` count only from TRUSTED_PROXIES. A page on any other name (an attacker's domain
 * rebound to 127.0.0.1) gets 421 and never reads or writes a session.
 */
import "server-only";
import type { ServerConfig } from "./schema";
import { ApiError } from "@/lib/server/util/errors";
import { isLoopbackHost } from "@/lib/server/util/ip-address";
import { trustedForwarded } from "@/lib/server/util/peer-address";

type TrustConfig = Pick<ServerConfig, "publicOrigins" | "trustedProxies" | "authMode">;

/** `host[:port]` the request was addressed to: Host, or X-Forwarded-Host from a trusted proxy. */
export function requestHost(request: Pick<Request, "headers" | "url">, config: TrustConfig): string | null {
  return (
    trustedForwarded(request, "x-forwarded-host", config.trustedProxies) ||
    request.headers.get("host") ||
    hostOfUrl(request.url)
  );
}

function hostOfUrl(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** https when the request came over TLS, directly or (per a trusted proxy's X-Forwarded-Proto). */
function requestProtocol(request: Pick<Request, "headers" | "url">, config: TrustConfig): "http:" | "https:" {
  const forwarded = trustedForwarded(request, "x-forwarded-proto", config.trustedProxies);
  if (forwarded) return forwarded.toLowerCase() === "https" ? "https:" : "http:";
  return request.url.startsWith("https:") ? "https:" : "http:";
}

/** The origin a browser on the page that sent this request would put in `Origin`; null when malformed. */
export function requestOrigin(request: Request, config: TrustConfig): string | null {
  const host = requestHost(request, config);
  if (!host) return null;
  try {
    return new URL(`${requestProtocol(request, config)}//${host}`).origin;
  } catch {
    return null;
  }
}

/** The PUBLIC_URL origin this host names, if any (ports compared as the origin's scheme reads them). */
export function publicOriginForHost(host: string, config: TrustConfig): string | null {
  for (const origin of config.publicOrigins) {
    const { protocol, host: expected } = new URL(origin);
    try {
      if (new URL(`${protocol}//${host}`).host === expected) return origin;
    } catch {
      // A Host that is not a host: not this one.
    }
  }
  return null;
}

/** Whether the console answers to this `host[:port]`. */
export function isAcceptedHost(host: string, config: TrustConfig): boolean {
  if (publicOriginForHost(host, config)) return true;
  if (config.authMode !== "none") return false;
  try {
    return isLoopbackHost(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}

/** Throws 421 `misdirected_request` when the request names a host the console does not answer to. */
export function assertAcceptedHost(request: Request, config: TrustConfig): void {
  const host = requestHost(request, config);
  if (host && isAcceptedHost(host, config)) return;
  throw new ApiError(
    "misdirected_request",
    `This console does not answer to ${JSON.stringify((host ?? "").slice(0, 200))}; use ` +
      `${config.publicOrigins.join(" or ")}${config.authMode === "none" ? " (or a loopback address)" : ""}. ` +
      "Set PUBLIC_URL to the address people use.",
    { host: (host ?? "").slice(0, 200), accepted: config.publicOrigins },
  );
}

/** Over https (the cookie is then Secure with the __Host- name): the request's protocol, or its PUBLIC_URL's. */
export function isSecureRequest(request: Pick<Request, "headers" | "url">, config: TrustConfig): boolean {
  if (requestProtocol(request, config) === "https:") return true;
  const host = requestHost(request, config);
  return host !== null && publicOriginForHost(host, config)?.startsWith("https:") === true;
}
