/**
 * Token metadata for the browser (docs/design.md §4): everything about a token except the token itself.
 * Decoding is cached per token, so repeated session reads do not decode and hash again.
 */
import "server-only";
import { createHash } from "node:crypto";
import { decodeJwt, decodeProtectedHeader } from "jose";
import type { TokenMetadata } from "@/lib/shared/contracts";
import { LruCache } from "@/lib/server/util/lru-cache";
import type { AccessToken } from "@/lib/server/session";

/** First 12 hex characters of SHA-256 of the access token. */
export function tokenFingerprint(accessToken: string): string {
  return createHash("sha256").update(accessToken).digest("hex").slice(0, 12);
}

const decoded = new LruCache<string, Pick<TokenMetadata, "fingerprint" | "header" | "claims">>(256);

function decode(accessToken: string): Pick<TokenMetadata, "fingerprint" | "header" | "claims"> {
  const cached = decoded.get(accessToken);
  if (cached) return cached;
  let header: Record<string, unknown> = {};
  let claims: Record<string, unknown> = {};
  // An opaque (non-JWT) token is allowed: it simply has no header or claims to show.
  try {
    header = { ...decodeProtectedHeader(accessToken) };
    claims = { ...decodeJwt(accessToken) };
  } catch {
    header = {};
    claims = {};
  }
  const result = { fingerprint: tokenFingerprint(accessToken), header, claims };
  decoded.set(accessToken, result);
  return result;
}

export function tokenMetadata(token: AccessToken): TokenMetadata {
  return {
    token_type: token.tokenType,
    scopes: token.scope.split(/\s+/).filter(Boolean),
    expires_in: token.expiresIn,
    issued_at: new Date(token.issuedAt).toISOString(),
    expires_at: new Date(token.issuedAt + token.expiresIn * 1000).toISOString(),
    ...decode(token.accessToken),
    meta: token.meta,
    jsonapi: token.jsonapi,
  };
}
