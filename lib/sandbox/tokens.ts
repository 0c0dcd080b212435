/** Issues and verifies the sandbox's HS256 access tokens (jose), with revocation. */
import { SignJWT, jwtVerify, type JWTPayload } from "jose";
import type { DemoClient } from "./fixtures";

export const TOKEN_ISSUER = "card-services-sandbox";
export const TOKEN_AUDIENCE = "card-services";

export interface TokenClaims {
  clientId: string;
  scopes: string[];
  jti: string;
}

export type VerifyResult = { ok: true; claims: TokenClaims } | { ok: false; reason: string };

export interface IssuedToken {
  accessToken: string;
  jti: string;
  expiresIn: number;
  scope: string;
}

/** Verified tokens remembered, so a token reused for many calls has its signature checked once. */
const VERIFIED_CACHE_SIZE = 1024;

export class TokenService {
  private readonly keyBytes: Uint8Array<ArrayBuffer>;
  /** The HMAC key imported into WebCrypto once: jose would import raw key bytes again on every call. */
  private keyPromise: Promise<CryptoKey> | undefined;
  /** token → its payload, for tokens whose signature and issuer/audience already checked out. */
  private readonly verified = new Map<string, JWTPayload>();
  /** jti → exp (seconds) of every token this instance issued that may still be valid. */
  private readonly issued = new Map<string, number>();
  /** jti → exp of revoked tokens, kept until they would have expired anyway. */
  private readonly revoked = new Map<string, number>();

  constructor(
    signingKey: string,
    private readonly now: () => number,
  ) {
    this.keyBytes = new TextEncoder().encode(signingKey);
  }

  private key(): Promise<CryptoKey> {
    this.keyPromise ??= crypto.subtle.importKey(
      "raw",
      this.keyBytes,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    return this.keyPromise;
  }

  /** Signature, algorithm, issuer and audience: facts of the token string that never change. */
  private async verifiedPayload(token: string): Promise<JWTPayload> {
    const cached = this.verified.get(token);
    if (cached) return cached;
    const { payload } = await jwtVerify(token, await this.key(), {
      algorithms: ["HS256"],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ["exp", "iat", "sub", "jti"],
      // Expiry is checked on every call below, against the injected clock.
      currentDate: new Date(0),
      clockTolerance: Number.MAX_SAFE_INTEGER,
    });
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.verified.keys().next();
      if (!oldest.done) this.verified.delete(oldest.value);
    }
    this.verified.set(token, payload);
    return payload;
  }

  async issue(client: DemoClient): Promise<IssuedToken> {
    const nowMs = this.now();
    const issuedAt = Math.floor(nowMs / 1000);
    const expiresAt = issuedAt + client.expiresIn;
    const jti = crypto.randomUUID();
    const scope = client.scopes.join(" ");
    // Record before the await so that a revocation racing with this request also covers this token.
    this.forgetExpired(issuedAt);
    this.issued.set(jti, expiresAt);
    // iat_ms: revoking a registered client's tokens compares issue times finer than iat's whole seconds.
    const accessToken = await new SignJWT({ scope, client_id: client.clientId, iat_ms: nowMs })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(client.clientId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(jti)
      .sign(await this.key());
    return { accessToken, jti, expiresIn: client.expiresIn, scope };
  }

  async verify(token: string): Promise<VerifyResult> {
    let payload: JWTPayload;
    try {
      payload = await this.verifiedPayload(token);
    } catch {
      return { ok: false, reason: "The access token is malformed or its signature is not valid." };
    }
    const { sub, jti, scope, exp } = payload;
    if (typeof exp !== "number" || exp <= Math.floor(this.now() / 1000)) {
      return { ok: false, reason: "The access token expired." };
    }
    if (typeof sub !== "string" || typeof jti !== "string" || typeof scope !== "string") {
      return { ok: false, reason: "The access token lacks required claims." };
    }
    if (this.revoked.has(jti)) return { ok: false, reason: "The access token was revoked." };
    return { ok: true, claims: { clientId: sub, jti, scopes: scope.split(" ").filter(Boolean) } };
  }

  /** Owner and issue time (ms) of a token whose signature holds, expired or not; null otherwise. */
  async owner(token: string): Promise<{ clientId: string; issuedAtMs: number } | null> {
    try {
      const { sub, iat, iat_ms: issuedAtMs } = await this.verifiedPayload(token);
      if (typeof sub !== "string" || typeof iat !== "number") return null;
      return { clientId: sub, issuedAtMs: typeof issuedAtMs === "number" ? issuedAtMs : iat * 1000 };
    } catch {
      return null;
    }
  }

  /** Every token issued so far becomes invalid. */
  revokeAll(): void {
    for (const [jti, exp] of this.issued) this.revoked.set(jti, exp);
    this.issued.clear();
  }

  /** Drops bookkeeping for tokens past their expiry: they fail verification on `exp` anyway. */
  private forgetExpired(nowSeconds: number): void {
    for (const entries of [this.issued, this.revoked]) {
      if (entries.size < 1024) continue;
      for (const [jti, exp] of entries) if (exp <= nowSeconds) entries.delete(jti);
    }
  }
}
