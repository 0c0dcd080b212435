/**
 * The headers every page and API answer carries. Scripts run only with the per-request
 * nonce ('strict-dynamic' lets Next's own chunks load what they import); nothing may frame the console,
 * plug-ins and <base> are off, and fetches go only to the console itself.
 */

export const NONCE_HEADER = "x-nonce";

/** 128 random bits, base64: unguessable, fresh for every request. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

function contentSecurityPolicy(nonce: string, options: { secure: boolean; dev: boolean }): string {
  const directives = [
    "default-src 'self'",
    // 'unsafe-eval' only in development, where React rebuilds error stacks with eval.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    // Style attributes in server-rendered HTML (progress bars) cannot carry a nonce.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${options.dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.secure ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/** Two years, as preload lists expect; sent only over https (a browser ignores it over http anyway). */
const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

export function securityHeaders(
  nonce: string,
  options: { secure: boolean; dev: boolean },
): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(nonce, options),
    "Cross-Origin-Opener-Policy": "same-origin",
    ...(options.secure ? { "Strict-Transport-Security": STRICT_TRANSPORT_SECURITY } : {}),
  };
}
