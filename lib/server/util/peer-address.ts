/**
 * Who is on the other end of a request. Next's route handlers and proxy see a Web Request, never the
 * socket, and Next itself only fills `X-Forwarded-For` when the client did not send one (base-server.js:
 * `req.headers['x-forwarded-for'] ??= socket.remoteAddress`), so that header proves nothing. The console's
 * server (scripts/serve.mjs) owns the socket: it removes any incoming `x-csc-peer-address` and writes the
 * socket's address there, and marks the process so. Without that mark (plain `next start`, tests calling
 * handlers in-process) the peer is unknown, and no forwarded header is believed.
 */
import "server-only";
import type { CidrList } from "./ip-address";
import { normalizeAddress } from "./ip-address";

export const PEER_ADDRESS_HEADER = "x-csc-peer-address";
/** Set to true by scripts/serve.mjs before Next loads, so before any root exists: a flag of the process, not of a root. */
const PEER_STAMPED = Symbol.for("card-services-console.peer-address-stamped");

function peerHeaderIsStamped(): boolean {
  return (globalThis as Record<symbol, unknown>)[PEER_STAMPED] === true;
}

/** Marks the process as served by a server that writes the peer header (tests; serve.mjs sets it itself). */
export function setPeerHeaderStamped(stamped: boolean): void {
  (globalThis as Record<symbol, unknown>)[PEER_STAMPED] = stamped;
}

/** The socket's address of the direct peer, or null when this process cannot know it. */
export function peerAddress(request: Pick<Request, "headers">): string | null {
  if (!peerHeaderIsStamped()) return null;
  const value = request.headers.get(PEER_ADDRESS_HEADER);
  return value ? normalizeAddress(value) : null;
}

/** True when the direct peer is one of TRUSTED_PROXIES: only then are X-Forwarded-* believed. */
export function fromTrustedProxy(request: Pick<Request, "headers">, trustedProxies: CidrList): boolean {
  const peer = peerAddress(request);
  return peer !== null && trustedProxies.has(peer);
}

/**
 * The client's address: the peer, or, when the peer is a trusted proxy, the nearest X-Forwarded-For entry
 * (from the right) that is not itself a trusted proxy. Null when unknown.
 */
export function clientAddress(request: Request, trustedProxies: CidrList): string | null {
  const peer = peerAddress(request);
  if (peer === null || !trustedProxies.has(peer)) return peer;
  const chain = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map(normalizeAddress);
  for (let index = chain.length - 1; index >= 0; index--) {
    const hop = chain[index] as string;
    if (!trustedProxies.has(hop)) return hop;
  }
  return chain[0] ?? peer;
}

/** The first value of a forwarded header, believed only from a trusted proxy. */
export function trustedForwarded(
  request: Pick<Request, "headers">,
  name: string,
  trustedProxies: CidrList,
): string | null {
  if (!fromTrustedProxy(request, trustedProxies)) return null;
  return request.headers.get(name)?.split(",")[0]?.trim() || null;
}
