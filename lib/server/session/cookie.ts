/**
 * The session cookie's name and attributes. Over https the name carries the `__Host-` prefix and the
 * `Secure` flag (the browser then pins it to this host and path /); on plain http (`npm start` on
 * localhost) neither, or the browser would drop it.
 */
import "server-only";

const SECURE_COOKIE_NAME = "__Host-csc_session";
const PLAIN_COOKIE_NAME = "csc_session";
/** Browsers keep at least 4096 bytes per cookie, name, value and attributes included (RFC 6265 §6.1). */
export const MAX_SET_COOKIE_BYTES = 4096;

export function cookieName(secure: boolean): string {
  return secure ? SECURE_COOKIE_NAME : PLAIN_COOKIE_NAME;
}

export function readCookie(request: Pick<Request, "headers">, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim() || null;
  }
  return null;
}

export function serializeSessionCookie(value: string, secure: boolean, maxAgeSeconds: number): string {
  const attributes = [`Path=/`, `Max-Age=${maxAgeSeconds}`, "HttpOnly", "SameSite=Lax"];
  if (secure) attributes.push("Secure");
  return `${cookieName(secure)}=${value}; ${attributes.join("; ")}`;
}

export function serializeExpiredSessionCookie(secure: boolean): string {
  const attributes = ["Path=/", "Max-Age=0", "HttpOnly", "SameSite=Lax"];
  if (secure) attributes.push("Secure");
  return `${cookieName(secure)}=; ${attributes.join("; ")}`;
}
