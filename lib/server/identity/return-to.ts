/**
 * Where the browser goes after signing in: only a path on this console, so a crafted sign-in link cannot send a
 * freshly signed-in user to another site (open redirect). Anything else becomes `/`.
 */

const DEFAULT_RETURN_TO = "/";
const MAX_RETURN_TO_LENGTH = 2048;
const PROBE_ORIGIN = "http://console.invalid";

/**
 * A same-site relative path (`/inquiry?x=1#y`) or `/`. Refused: absolute and protocol-relative URLs (`//evil`,
 * `/\evil`), backslashes and control characters (browsers rewrite them), and `/api/` (an answer, not a page).
 */
export function safeReturnTo(value: string | null | undefined): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_RETURN_TO_LENGTH)
    return DEFAULT_RETURN_TO;
  if (!value.startsWith("/") || value.startsWith("//")) return DEFAULT_RETURN_TO;
  if (hasBackslashOrControl(value)) return DEFAULT_RETURN_TO;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return DEFAULT_RETURN_TO;
  }
  if (url.origin !== PROBE_ORIGIN) return DEFAULT_RETURN_TO;
  const path = url.pathname + url.search + url.hash;
  if (path === "/api" || path.startsWith("/api/")) return DEFAULT_RETURN_TO;
  return path;
}

function hasBackslashOrControl(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code <= 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}
