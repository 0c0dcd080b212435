/**
 * The token lifecycle (spec §5): reuse the session's token, renew it ahead of expiry, renew once after a
 * 401. Renewals are single-flight per credentials: any number of concurrent calls that need a new token for
 * the same credentials share one token request, and a token obtained a moment ago for the same credentials
 * is reused (briefly) by calls that still carry the old one in their cookie.
 *
 * The shared memory is keyed by a hash of the credentials, secret included: only a caller that holds the
 * same secret can be handed the same token.
 */
import "server-only";
import type { EnvironmentName, TokenEvent, TokenEventType } from "@/lib/api/contracts";
import { ApiError } from "@/lib/errors";
import { LruCache } from "@/lib/http/lru-cache";
import type { AccessToken } from "@/lib/session";
import type { ResolvedCredentials } from "@/lib/session/credentials";
import type { CardApiClient, TokenGrant } from "./client";
import { buildExchangeRecord } from "./exchange-record";
import { tokenFingerprint } from "./token-metadata";

/** meta and jsonapi of a token response are kept only when small: the session cookie has 4 KB in all. */
const MAX_KEPT_OBJECT_CHARS = 400;
/** How long a freshly obtained token is offered to other calls with the same credentials. */
const SHARED_TOKEN_MAX_AGE_MS = 5 * 60_000;

export interface TokenContext {
  client: CardApiClient;
  environment: EnvironmentName;
  credentials: ResolvedCredentials;
  credentialsKey: string;
}

export interface ObtainedToken {
  token: AccessToken;
  /** Present when the token is not the one the session already had. */
  event?: TokenEvent;
  /** Time spent obtaining it (0 when the session's token was used). */
  tokenMs: number;
}

function keepSmall(value: Record<string, unknown> | null): Record<string, unknown> | null {
  return value && JSON.stringify(value).length <= MAX_KEPT_OBJECT_CHARS ? value : null;
}

export class TokenBroker {
  private readonly inflight = new Map<string, Promise<AccessToken>>();
  private readonly recent = new LruCache<string, AccessToken>(500);

  constructor(
    private readonly renewSkewSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** When to stop using a token: the skew before expiry, at most half its lifetime for short-lived ones. */
  renewAt(token: AccessToken): number {
    const skew = Math.min(this.renewSkewSeconds, token.expiresIn / 2);
    return token.issuedAt + (token.expiresIn - skew) * 1000;
  }

  isFresh(token: AccessToken, credentialsKey: string): boolean {
    return token.credentialsKey === credentialsKey && this.now() < this.renewAt(token);
  }

  /** The session's token when still fresh; otherwise a renewed one (single-flight). */
  async ensure(context: TokenContext, current: AccessToken | undefined): Promise<ObtainedToken> {
    if (current && this.isFresh(current, context.credentialsKey)) return { token: current, tokenMs: 0 };
    const usable = current?.credentialsKey === context.credentialsKey ? current : undefined;
    const type: TokenEventType = usable ? "renewed_before_expiry" : "acquired";
    const detail = usable
      ? `The session's token expires at ${new Date(usable.issuedAt + usable.expiresIn * 1000).toISOString()}, ` +
        "within the renewal margin: renewed before use."
      : "The session had no token for these credentials: requested one.";
    return this.obtain(context, usable, type, detail);
  }

  /** After the upstream answered 401 to `rejected`: a different token (single-flight), never the same. */
  async renewAfterRejection(context: TokenContext, rejected: AccessToken): Promise<ObtainedToken> {
    const detail =
      `The upstream answered 401 to token ${tokenFingerprint(rejected.accessToken)}: ` +
      "renewed the token and retried once with the same X-Request-Id.";
    return this.obtain(context, rejected, "renewed_after_401", detail);
  }

  /** POST /api/token: a token request now, outside single-flight; the result is shared when it succeeds. */
  async requestNow(context: TokenContext) {
    const result = await context.client.requestToken(context.credentials);
    const token = result.grant ? this.toAccessToken(result.grant, context.credentialsKey) : null;
    if (token) this.recent.set(context.credentialsKey, token);
    return { ...result, token };
  }

  private async obtain(
    context: TokenContext,
    replacing: AccessToken | undefined,
    type: TokenEventType,
    detail: string,
  ): Promise<ObtainedToken> {
    const started = performance.now();
    const key = context.credentialsKey;
    const shared = this.recent.get(key);
    let token: AccessToken;
    if (
      shared &&
      shared.accessToken !== replacing?.accessToken &&
      this.isFresh(shared, key) &&
      this.now() - shared.issuedAt < SHARED_TOKEN_MAX_AGE_MS
    ) {
      token = shared;
      detail += " (A token this server had just obtained for the same credentials was used.)";
    } else {
      if (shared && shared.accessToken === replacing?.accessToken) this.recent.delete(key);
      let pending = this.inflight.get(key);
      if (!pending) {
        pending = this.fetchToken(context).finally(() => this.inflight.delete(key));
        this.inflight.set(key, pending);
      }
      token = await pending;
    }
    const event: TokenEvent = {
      type,
      at: new Date(this.now()).toISOString(),
      fingerprint: tokenFingerprint(token.accessToken),
      detail,
    };
    return { token, event, tokenMs: Math.round((performance.now() - started) * 10) / 10 };
  }

  private async fetchToken(context: TokenContext): Promise<AccessToken> {
    const result = await context.client.requestToken(context.credentials);
    if (!result.grant) {
      const exchange = buildExchangeRecord({
        operation: "token",
        environment: context.environment,
        exchange: result.exchange,
        check: result.check,
      });
      throw new ApiError(
        "token_refused",
        `The token endpoint did not issue a token (HTTP ${result.exchange.response.status}); check the client credentials.`,
        { exchange },
      );
    }
    const token = this.toAccessToken(result.grant, context.credentialsKey);
    this.recent.set(context.credentialsKey, token);
    return token;
  }

  private toAccessToken(grant: TokenGrant, key: string): AccessToken {
    return {
      accessToken: grant.accessToken,
      tokenType: grant.tokenType,
      scope: grant.scope,
      expiresIn: grant.expiresIn,
      issuedAt: this.now(),
      credentialsKey: key,
      meta: keepSmall(grant.meta),
      jsonapi: keepSmall(grant.jsonapi),
    };
  }
}
