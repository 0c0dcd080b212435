/**
 * `AUTH_MODE=proxy`: the user as a trusted reverse proxy (oauth2-proxy, an ingress) names them in headers. The
 * headers are believed only when both hold: the connection comes from `TRUSTED_PROXIES` (`peerIsTrusted`, decided
 * by lib/server/http from the socket's address) and `X-Proxy-Secret` equals `PROXY_SHARED_SECRET`. Anything else is no
 * identity: a client that reaches the console directly and sends `X-Forwarded-User: alice` is simply not signed in.
 */
import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import type { SignedInUser } from "./me";
import { rolesFromGroups } from "./roles";
import { PROXY_SECRET_HEADER, type ProxyAuthSettings } from "./settings";

const MAX_USER_LENGTH = 256;
const MAX_GROUPS = 256;
const MAX_GROUP_LENGTH = 256;

export function identityFromProxy(
  request: { headers: Headers },
  settings: ProxyAuthSettings,
  peerIsTrusted: boolean,
): SignedInUser | null {
  if (!peerIsTrusted) return null;
  const { sharedSecret, userHeader, groupsHeader } = settings.proxy;
  if (!sharedSecret || !secretsEqual(request.headers.get(PROXY_SECRET_HEADER), sharedSecret)) return null;

  const user = request.headers.get(userHeader)?.trim() ?? "";
  if (!user || user.length > MAX_USER_LENGTH || !isPrintable(user)) return null;
  const groups = parseGroupsHeader(request.headers.get(groupsHeader));
  return { id: user, name: user, groups, roles: rolesFromGroups(groups, settings.roleGroups) };
}

/**
 * The groups header as oauth2-proxy writes it: names joined by a comma, nothing else. Each name is taken exactly
 * as it stands between commas, spaces included, so `Finance, console-admins` names `Finance` and
 * ` console-admins` and grants nothing to a user who is in neither; a trimmed match would hand the role to a group
 * the administrator did not name. Empty, unprintable or oversized names are dropped.
 */
export function parseGroupsHeader(value: string | null): string[] {
  if (!value) return [];
  const groups = value
    .split(",")
    .filter((group) => group.length > 0 && group.length <= MAX_GROUP_LENGTH && isPrintable(group));
  return [...new Set(groups)].slice(0, MAX_GROUPS);
}

/** Constant-time, and length-independent: both sides are hashed to 32 bytes first. */
function secretsEqual(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function isPrintable(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}
