/**
 * The absolute origin a generated document names in `servers` (and a collection in its addresses): the public
 * origin the request was addressed to, else the request's own origin when the console answers to its Host
 * (loopback in AUTH_MODE=none), else the first PUBLIC_URL. Clients that import by URL need absolute addresses.
 */
import "server-only";
import type { ServerConfig } from "@/lib/server/config";
import {
  isAcceptedHost,
  publicOriginForHost,
  requestHost,
  requestOrigin,
} from "@/lib/server/config/host-trust";

export function documentOrigin(request: Request, config: ServerConfig): string {
  const host = requestHost(request, config);
  const publicOrigin = host ? publicOriginForHost(host, config) : null;
  if (publicOrigin) return publicOrigin;
  const own = requestOrigin(request, config);
  if (host && own && isAcceptedHost(host, config)) return own;
  return config.publicOrigins[0] ?? new URL(request.url).origin;
}
