/** Issues and verifies the sandbox's HS256 access tokens (jose), with revocation. */
import { SignJWT, errors as joseErrors, jwtVerify } from "jose";
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

export class TokenService {
  private readonly key: Uint8Array;
  /** jti → exp (seconds) of every token this instance issued that may still be valid. */
  private readonly issued = new Map<string, number>();
  /** jti → exp of revoked tokens, kept until they would have expired anyway. */
  private readonly revoked = new Map<string, number>();

  constructor(
    signingKey: string,
    private readonly now: () => number,
  ) {
    this.key = new TextEncoder().encode(signingKey);
  }

  async issue(client: DemoClient): Promise<IssuedToken> {
    const issuedAt = Math.floor(this.now() / 1000);
    const expiresAt = issuedAt + client.expiresIn;
    const jti = crypto.randomUUID();
    const scope = client.scopes.join(" ");
    // Record before the await so that a revocation racing with this request also covers this token.
    this.forgetExpired(issuedAt);
    this.issued.set(jti, expiresAt);
    const accessToken = await new SignJWT({ scope, client_id: client.clientId })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(client.clientId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(jti)
      .sign(this.key);
    return { accessToken, jti, expiresIn: client.expiresIn, scope };
  }

  async verify(token: string): Promise<VerifyResult> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: ["HS256"],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        currentDate: new Date(this.now()),
        requiredClaims: ["exp", "iat", "sub", "jti"],
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: "The access token expired." };
      return { ok: false, reason: "The access token is malformed or its signature is not valid." };
    }
    const { sub, jti, scope } = payload;
    if (typeof sub !== "string" || typeof jti !== "string" || typeof scope !== "string") {
      return { ok: false, reason: "The access token lacks required claims." };
    }
    if (this.revoked.has(jti)) return { ok: false, reason: "The access token was revoked." };
    return { ok: true, claims: { clientId: sub, jti, scopes: scope.split(" ").filter(Boolean) } };
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
