/**
 * The encrypted session (iron-session seals in an HttpOnly cookie). Route handlers read it from the
 * request's Cookie header and, only when it changed, write it back on their Response, so that they can be
 * called in-process with a plain `Request`.
 *
 * A cookie that fails to unseal, has expired or does not match the schema is an empty session, never an
 * error. Unsealed sessions are cached by cookie value (the value authenticates itself), so the hot path
 * of an unchanged session costs neither an unseal nor a reseal.
 */
import "server-only";
import { getConfig, type ServerConfig } from "@/lib/config";
import { ApiError } from "@/lib/errors";
import { isSecureRequest } from "@/lib/http/host-trust";
import { LruCache } from "@/lib/http/lru-cache";
import { processSingletonFor } from "@/lib/process-singleton";
import {
  MAX_SET_COOKIE_BYTES,
  cookieName,
  readCookie,
  serializeExpiredSessionCookie,
  serializeSessionCookie,
} from "./cookie";
import { fromSealed, sealable, type SessionState } from "./schema";
import { seal, unseal } from "./seal";

export type { AccessToken, SessionCredentials, SessionState } from "./schema";

/** Longer values cannot be a cookie this server wrote; they are not even unsealed. */
const MAX_COOKIE_VALUE_LENGTH = 4096;

interface CachedSession {
  state: SessionState;
  expiresAt: number;
  passwordIndex: number;
}

/** The cache belongs to one configuration: new passwords or TTL (tests) start an empty one. */
function sessionCache(config: ServerConfig): LruCache<string, CachedSession> {
  return processSingletonFor("session-cache", config, () => new LruCache<string, CachedSession>(1000));
}

function isEmpty(state: SessionState): boolean {
  return !state.environment && !state.credentials && !state.token;
}

export class Session {
  private changed: boolean;

  constructor(
    private current: SessionState,
    /** Whether the request came over https (cookie name and Secure flag follow it). */
    readonly secure: boolean,
    private readonly hadCookie: boolean,
    needsReseal = false,
  ) {
    this.changed = needsReseal;
  }

  get state(): Readonly<SessionState> {
    return this.current;
  }

  get isChanged(): boolean {
    return this.changed;
  }

  /** Replaces top-level fields; `undefined` removes one. Objects are never mutated, only replaced. */
  update(patch: Partial<SessionState>): void {
    const next: SessionState = { ...this.current };
    let different = false;
    for (const key of Object.keys(patch) as (keyof SessionState)[]) {
      if (next[key] === patch[key]) continue;
      different = true;
      if (patch[key] === undefined) delete next[key];
      else Object.assign(next, { [key]: patch[key] });
    }
    if (!different) return;
    this.current = next;
    this.changed = true;
  }

  destroy(): void {
    this.current = {};
    this.changed = true;
  }

  /** Adds Set-Cookie to the response when the session changed; leaves it untouched otherwise. */
  async commit(response: Response): Promise<Response> {
    if (!this.changed) return response;
    if (isEmpty(this.current)) {
      if (this.hadCookie) response.headers.append("Set-Cookie", serializeExpiredSessionCookie(this.secure));
      return response;
    }
    const config = getConfig();
    const ttl = config.sessionTtlSeconds;
    const expiresAt = Date.now() + ttl * 1000;
    const checked = sealable(this.current, expiresAt);
    if (!checked.ok) {
      throw new ApiError(
        "session_unstorable",
        `The session cannot be stored: ${checked.issue}. Nothing was kept from this call.`,
      );
    }
    const value = await seal(checked.sealed, config.sessionPasswords, ttl);
    const header = serializeSessionCookie(value, this.secure, ttl);
    if (header.length > MAX_SET_COOKIE_BYTES) {
      throw new ApiError(
        "token_too_large",
        `The session cookie would be ${header.length} bytes, over the ${MAX_SET_COOKIE_BYTES}-byte limit ` +
          `browsers keep; the upstream's access token is ${this.current.token?.accessToken.length ?? 0} ` +
          "characters long.",
      );
    }
    sessionCache(config).set(value, { state: this.current, expiresAt, passwordIndex: 0 });
    response.headers.append("Set-Cookie", header);
    return response;
  }
}

export async function getSession(request: Request): Promise<Session> {
  const config = getConfig();
  const secure = isSecureRequest(request, config);
  const value = readCookie(request, cookieName(secure));
  if (!value) return new Session({}, secure, false);
  if (value.length > MAX_COOKIE_VALUE_LENGTH) return new Session({}, secure, true, true);

  const cache = sessionCache(config);
  const now = Date.now();
  const cached = cache.get(value);
  if (cached) {
    if (cached.expiresAt > now) return new Session(cached.state, secure, true, cached.passwordIndex > 0);
    cache.delete(value);
  }

  const unsealed = await unseal(value, config.sessionPasswords);
  const parsed = unsealed ? fromSealed(unsealed.data) : null;
  if (!unsealed || !parsed || parsed.expiresAt <= now) {
    // Unreadable or expired: an empty session; the stale cookie is removed with the next write.
    return new Session({}, secure, true);
  }
  cache.set(value, {
    state: parsed.state,
    expiresAt: parsed.expiresAt,
    passwordIndex: unsealed.passwordIndex,
  });
  // Opened by an older password: reseal with the newest at the end of this request.
  return new Session(parsed.state, secure, true, unsealed.passwordIndex > 0);
}
