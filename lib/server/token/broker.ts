/**
 * The token lifecycle (API specification §5): reuse the session's token, renew it ahead of expiry, renew once after a
 * 401. Renewals are single-flight per credentials: any number of concurrent calls that need a new token for
 * the same credentials share one token request, and a token obtained a moment ago for the same credentials
 * is reused (briefly) by calls that still carry the old one in their cookie.
 *
 * The shared memory is keyed by a hash of the credentials, secret included: only a caller that holds the
 * same secret can be handed the same token.
 */
import "server-only";
import { createRedactor } from "@/lib/shared/redaction";
import type { TokenEvent, TokenEventType } from "@/lib/shared/contracts";
import { ApiError } from "@/lib/server/util/errors";
import { LruCache } from "@/lib/server/util/lru-cache";
import type { AccessToken } from "@/lib/server/session";
import type { TokenGrant } from "@/lib/server/card-api/client";
import { buildExchangeRecord } from "@/lib/server/card-api/exchange-record";
import { paying, type CallContext } from "./call-context";
import { tokenFingerprint } from "./metadata";

/** meta and jsonapi of a token response are kept only when small: the session cookie has 4 KB in all. */
const MAX_KEPT_OBJECT_CHARS = 400;
/** How long a freshly obtained token is offered to other calls with the same credentials. */
const SHARED_TOKEN_MAX_AGE_MS = 5 * 60_000;

/** What the broker uses of a call: its token endpoint's client, its environment and who pays. */
type TokenCall = Pick<CallContext, "client" | "environment" | "credentials">;

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

/** A token this server obtained, with when it asked for it (on the broker's clock). */
interface SharedToken {
  token: AccessToken;
  requestedAt: number;
}

export class TokenBroker {
  private readonly inflight = new Map<string, { pending: Promise<AccessToken>; requestedAt: number }>();
  private readonly recent = new LruCache<string, SharedToken>(500);

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
  async ensure(call: TokenCall, current: AccessToken | undefined): Promise<ObtainedToken> {
    const { key } = paying(call);
    if (current && this.isFresh(current, key)) return { token: current, tokenMs: 0 };
    const usable = current?.credentialsKey === key ? current : undefined;
    if (!usable) {
      return this.obtain(call, {
        type: "acquired",
        detail: "The session had no token for these credentials: requested one.",
      });
    }
    const expiresAt = usable.issuedAt + usable.expiresIn * 1000;
    const expired = this.now() >= expiresAt;
    return this.obtain(call, {
      type: "renewed_before_expiry",
      detail: expired
        ? `The session's token had expired at ${new Date(expiresAt).toISOString()}: requested a new one before use.`
        : `The session's token expires at ${new Date(expiresAt).toISOString()}, within the renewal margin: ` +
          "renewed before use.",
      replacing: usable,
    });
  }

  /**
   * After the upstream answered 401 to `rejected`, in a call that started at `rejectedCallStartedAt` (this
   * broker's clock): a different token (single-flight), never the same. A token another call obtained is
   * reused only when it was asked for after the rejected call started: one asked for earlier may have been
   * revoked together with the rejected one, and the one retry would be wasted on it.
   */
  async renewAfterRejection(
    call: TokenCall,
    rejected: AccessToken,
    rejectedCallStartedAt: number,
  ): Promise<ObtainedToken> {
    return this.obtain(call, {
      type: "renewed_after_401",
      detail:
        `The upstream answered 401 to token ${tokenFingerprint(rejected.accessToken)}: ` +
        "renewed the token and retried once with the same X-Request-Id.",
      replacing: rejected,
      notRequestedBefore: rejectedCallStartedAt,
    });
  }

  /** POST /api/token: a token request now, outside single-flight; the result is shared when it succeeds. */
  async requestNow(call: TokenCall) {
    const requestedAt = this.now();
    const credentials = paying(call);
    const result = await call.client.requestToken(credentials);
    const token = result.grant
      ? this.toAccessToken(result.grant, credentials.key, credentials.clientSecret)
      : null;
    if (token) this.recent.set(credentials.key, { token, requestedAt });
    return { ...result, token };
  }

  private async obtain(
    call: TokenCall,
    why: {
      type: TokenEventType;
      detail: string;
      replacing?: AccessToken;
      /** Shared and in-flight tokens asked for before this time are not used. */
      notRequestedBefore?: number;
    },
  ): Promise<ObtainedToken> {
    const started = performance.now();
    const key = paying(call).key;
    const { replacing, notRequestedBefore = -Infinity } = why;
    const shared = this.recent.get(key);
    let detail = why.detail;
    let token: AccessToken;
    if (
      shared &&
      shared.token.accessToken !== replacing?.accessToken &&
      shared.requestedAt >= notRequestedBefore &&
      this.isFresh(shared.token, key) &&
      this.now() - shared.token.issuedAt < SHARED_TOKEN_MAX_AGE_MS
    ) {
      token = shared.token;
      detail += " (A token this server had just obtained for the same credentials was used.)";
    } else {
      if (shared && shared.token.accessToken === replacing?.accessToken) this.recent.delete(key);
      let flight = this.inflight.get(key);
      if (!flight || flight.requestedAt < notRequestedBefore) {
        const requestedAt = this.now();
        const pending = this.fetchToken(call, replacing, requestedAt).finally(() => {
          if (this.inflight.get(key)?.pending === pending) this.inflight.delete(key);
        });
        flight = { pending, requestedAt };
        this.inflight.set(key, flight);
      }
      token = await flight.pending;
    }
    const event: TokenEvent = {
      type: why.type,
      at: new Date(this.now()).toISOString(),
      fingerprint: tokenFingerprint(token.accessToken),
      detail,
    };
    return { token, event, tokenMs: Math.round((performance.now() - started) * 10) / 10 };
  }

  private async fetchToken(
    call: TokenCall,
    replacing: AccessToken | undefined,
    requestedAt: number,
  ): Promise<AccessToken> {
    const credentials = paying(call);
    const result = await call.client.requestToken(credentials);
    if (!result.grant) {
      const exchange = buildExchangeRecord({
        operation: "token",
        environment: call.environment.name,
        exchange: result.exchange,
        check: result.check,
        secrets: [credentials.clientSecret, replacing?.accessToken],
      });
      throw new ApiError("token_refused", tokenRefusal(result.exchange.response, result.check), { exchange });
    }
    const token = this.toAccessToken(result.grant, credentials.key, credentials.clientSecret);
    this.recent.set(credentials.key, { token, requestedAt });
    return token;
  }

  private toAccessToken(grant: TokenGrant, key: string, clientSecret: string): AccessToken {
    // The token response's meta and jsonapi are shown with the token's details: an upstream that echoes the
    // secret or the token there must not hand them to the browser.
    const clean = createRedactor([clientSecret, grant.accessToken]);
    return {
      accessToken: grant.accessToken,
      tokenType: grant.tokenType,
      scope: grant.scope,
      expiresIn: grant.expiresIn,
      issuedAt: this.now(),
      credentialsKey: key,
      meta: keepSmall(clean.value(grant.meta) as TokenGrant["meta"]),
      jsonapi: keepSmall(clean.value(grant.jsonapi) as TokenGrant["jsonapi"]),
    };
  }
}

/**
 * Why the token endpoint gave no token, in words that match what happened: only a
 * 400/401/403 is about the credentials; a redirect or an HTML page means the address is wrong or something
 * in between answered.
 */
function tokenRefusal(
  response: { status: number; headers: Record<string, string> },
  check: { isJson: boolean; issues: string[] },
): string {
  const { status } = response;
  const location = response.headers["location"];
  const contentType = response.headers["content-type"] ?? "no Content-Type";
  if (status >= 300 && status < 400) {
    return (
      `The token endpoint answered a redirect (HTTP ${status}${location ? ` to ${location.slice(0, 200)}` : ""}), ` +
      "which the console does not follow: check CARD_API_AUTH_URL (scheme, host and path)."
    );
  }
  if (!check.isJson) {
    return (
      `The token endpoint answered HTTP ${status} with a body that is not JSON (${contentType.slice(0, 100)}): ` +
      "probably not the token endpoint (a login page, a proxy or a gateway error); check CARD_API_AUTH_URL."
    );
  }
  if (status === 400 || status === 401 || status === 403) {
    return `The token endpoint refused the request (HTTP ${status}); check the client credentials.`;
  }
  if (status >= 200 && status < 300) {
    const issue = check.issues[0];
    return `The token endpoint answered HTTP ${status} without a usable token${issue ? ` (${issue})` : ""}.`;
  }
  return `The token endpoint did not issue a token (HTTP ${status}).`;
}
