/**
 * Where a started OIDC sign-in waits for its callback: a short-lived cookie of its own, sealed (encrypted and
 * authenticated, iron-session) with the SESSION_SECRET passwords, HttpOnly, SameSite=Lax.
 *
 * Why a cookie: it binds the state, nonce and PKCE verifier to the browser that started the sign-in (a callback
 * address opened in another browser finds no cookie, or another state: login CSRF fails), needs no storage shared
 * between instances beyond SESSION_SECRET, and expires by itself after PENDING_SIGN_IN_TTL_SECONDS (inside the
 * seal as well as in Max-Age). Lax, not Strict: the callback is a top-level navigation coming from the provider's
 * site, on which a Strict cookie would not be sent. The callback route clears it whatever the outcome; a replay
 * of the cookie with the same callback fails at the provider, which accepts each code once.
 */
import "server-only";
import { sealData, unsealData } from "iron-session";
import { PENDING_SIGN_IN_TTL_SECONDS, pendingSignInSchema, type PendingSignIn } from "./oidc";

const SECURE_PENDING_SIGN_IN_COOKIE = "__Host-csc_sign_in";
const PLAIN_PENDING_SIGN_IN_COOKIE = "csc_sign_in";
const SEAL_PASSWORD_ID = 1;

export function pendingSignInCookieName(secure: boolean): string {
  return secure ? SECURE_PENDING_SIGN_IN_COOKIE : PLAIN_PENDING_SIGN_IN_COOKIE;
}

/** Seals with the newest password (the first). */
export async function sealPendingSignIn(
  pending: PendingSignIn,
  passwords: readonly string[],
): Promise<string> {
  const [newest] = passwords;
  if (!newest) throw new Error("no session password configured");
  return sealData(pending, { password: { [SEAL_PASSWORD_ID]: newest }, ttl: PENDING_SIGN_IN_TTL_SECONDS });
}

/** The pending sign-in, or null for a missing, expired, forged or malformed value. Never throws. */
export async function unsealPendingSignIn(
  value: string | null | undefined,
  passwords: readonly string[],
): Promise<PendingSignIn | null> {
  if (!value) return null;
  for (const password of passwords) {
    try {
      const data: unknown = await unsealData(value, {
        password: { [SEAL_PASSWORD_ID]: password },
        ttl: PENDING_SIGN_IN_TTL_SECONDS,
      });
      const parsed = pendingSignInSchema.safeParse(data);
      if (parsed.success) return parsed.data;
    } catch {
      return null;
    }
  }
  return null;
}

export function serializePendingSignInCookie(sealed: string, secure: boolean): string {
  return [
    `${pendingSignInCookieName(secure)}=${sealed}`,
    "Path=/",
    `Max-Age=${PENDING_SIGN_IN_TTL_SECONDS}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

export function serializeClearedPendingSignInCookie(secure: boolean): string {
  return [`${pendingSignInCookieName(secure)}=`, "Path=/", "Max-Age=0", "HttpOnly", "SameSite=Lax"]
    .concat(secure ? ["Secure"] : [])
    .join("; ");
}
