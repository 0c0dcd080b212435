/**
 * The session: an iron-session seal in an HttpOnly cookie that holds the environment, the credentials a user
 * typed (encrypted; they never leave the server) and the access token, plus the id of a server-side row
 * (lib/server/session/store) that decides whether the session is still live. Every request checks that row (a sign-out
 * on one instance ends the session on all of them; a copied cookie then opens nothing), and the absolute end is
 * fixed when the row is created: token renewals, environment and credential changes never extend it.
 *
 * Route handlers read the session from the request's Cookie header and, only when it changed, write it back on
 * their Response, so that they can be called in-process with a plain `Request`. A cookie that fails to unseal,
 * does not match the schema or whose row is over is an empty session, never an error. Unsealed values are cached
 * by cookie value (the value authenticates itself), which saves the crypto; the row is checked all the same.
 */
import "server-only";
import type { ServerConfig } from "@/lib/server/config";
import { ApiError } from "@/lib/server/util/errors";
import { isSecureRequest } from "@/lib/server/config/host-trust";
import { LruCache } from "@/lib/server/util/lru-cache";
import type { EndReason, SessionStore, StoredSession } from "@/lib/server/session/store";
import {
  MAX_SET_COOKIE_BYTES,
  cookieName,
  readCookie,
  serializeExpiredSessionCookie,
  serializeSessionCookie,
} from "./cookie";
import { fromSealed, sealable, type SessionBinding, type SessionState, type SessionUser } from "./schema";
import { seal, unseal } from "./seal";

export type { AccessToken, SessionState, SessionUser } from "./schema";

/** Longer values cannot be a cookie this server wrote; they are not even unsealed. */
const MAX_COOKIE_VALUE_LENGTH = 4096;

interface CachedSeal {
  state: SessionState;
  binding: SessionBinding;
  passwordIndex: number;
}

// Composition root: what sessions need, built once per configuration (lib/server/root) and passed in.
export interface SessionContext {
  config: ServerConfig;
  store: SessionStore;
  /** Unsealed cookie values; belongs to one configuration (its passwords). */
  seals: LruCache<string, CachedSeal>;
  /** Told of every new row before its cookie is written (AUTH_MODE=proxy: that is the sign-in, audited). */
  onCreated?: (row: StoredSession) => Promise<void>;
}

export function createSessionContext(
  config: ServerConfig,
  store: SessionStore,
  onCreated?: (row: StoredSession) => Promise<void>,
): SessionContext {
  return {
    config,
    store,
    seals: new LruCache<string, CachedSeal>(1000),
    ...(onCreated ? { onCreated } : {}),
  };
}

/** Who a new server-side row belongs to. */
export interface SessionOwner {
  id: string;
  roles: readonly string[];
}

/** A session the row check found over just now (idle or past its lifetime): for the audit log. */
export interface EndedSession {
  reason: EndReason;
  userId: string;
}

/** How long after a proxy user's session row is made their page's other first calls join it. */
const PAGE_START_SECONDS = 30;

export class Session {
  private changed: boolean;
  private owner: SessionOwner | undefined;
  private ended = false;
  /** Set by `signIn`: the user the row made at commit is for. */
  private pendingSignIn: SessionUser | undefined;
  /** Set by `signIn`: the provider's ID token, stored in that row (never in the cookie). */
  private pendingIdToken: string | undefined;
  /** Set by `keepForOwner`: stored (a row, a cookie) even while it holds no state. */
  private kept = false;

  constructor(
    private current: SessionState,
    /** Whether the request came over https (cookie name and Secure flag follow it). */
    readonly secure: boolean,
    private readonly hadCookie: boolean,
    private readonly context: SessionContext,
    private binding: SessionBinding | undefined = undefined,
    needsWrite = false,
    /** Set when this request found the session idle or expired and ended it. */
    readonly endedNow: EndedSession | undefined = undefined,
    /** Why the session this request's cookie named is over (idle, expired, signed out, ended by an admin). */
    readonly endReason: EndReason | undefined = endedNow?.reason,
    /** Whose that session was, as the cookie said. */
    readonly endedOwnerId: string | undefined = undefined,
  ) {
    this.changed = needsWrite;
  }

  get state(): Readonly<SessionState> {
    return this.current;
  }

  get isChanged(): boolean {
    return this.changed;
  }

  /** AUTH_MODE=oidc: the user who signed in, while the session is live. */
  get signedInUser(): SessionUser | undefined {
    return this.binding?.signedInUser;
  }

  /** The user id of this session's row, when it has one. */
  get ownerId(): string | undefined {
    return this.binding?.ownerId;
  }

  /** The server-side row's id, when the session has one. */
  get sessionId(): string | undefined {
    return this.binding?.sessionId;
  }

  /** Epoch milliseconds of the absolute end, when the session has a row. */
  get expiresAt(): number | undefined {
    return this.binding?.expiresAt;
  }

  /** The user a row made for this session will belong to (the request's identity). */
  setOwner(owner: SessionOwner): void {
    this.owner = owner;
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

  /**
   * A fresh session for a user who just signed in (AUTH_MODE=oidc): a new row and id (never the one the browser
   * brought: no fixation), nothing of what the browser held before.
   */
  signIn(user: SessionUser, roles: readonly string[], idToken?: string): void {
    this.current = {};
    this.binding = undefined;
    this.owner = { id: user.id, roles };
    this.pendingSignIn = user;
    this.pendingIdToken = idToken;
    this.ended = false;
    this.changed = true;
  }

  /**
   * Ends the session now, on every instance (its row is marked ended) and in this browser (the cookie is
   * removed). True when it was live until now.
   */
  async end(reason: EndReason): Promise<boolean> {
    const id = this.binding?.sessionId;
    this.current = {};
    this.binding = undefined;
    this.pendingSignIn = undefined;
    this.pendingIdToken = undefined;
    this.ended = true;
    this.changed = true;
    return id ? this.context.store.end(id, reason) : false;
  }

  /** The provider's ID token this session was signed in with (AUTH_MODE=oidc), from its server-side row. */
  async providerIdToken(): Promise<string | undefined> {
    const id = this.binding?.sessionId;
    return (id ? await this.context.store.idToken(id) : null) ?? undefined;
  }

  /**
   * AUTH_MODE=proxy, a page of the console open for the owner: the session is stored although it holds nothing yet,
   * so that the user is signed in (a row, audited `sign_in`, listed for admins) from their first page, not from
   * their first change of state. A session that has its row already is left as it is.
   */
  keepForOwner(): void {
    if (this.binding || this.ended || !this.owner) return;
    this.kept = true;
    this.changed = true;
  }

  /** Adds Set-Cookie to the response when the session changed; leaves it untouched otherwise. */
  async commit(response: Response, clientAddress: string | null = null): Promise<Response> {
    if (!this.changed) return response;
    const holdsSomething =
      !isEmpty(this.current) || this.pendingSignIn !== undefined || !!this.signedInUser || this.kept;
    if (this.ended || !holdsSomething) {
      if (this.hadCookie) response.headers.append("Set-Cookie", serializeExpiredSessionCookie(this.secure));
      return response;
    }
    const config = this.context.config;
    // Checked before a row is made: a state that cannot be stored creates nothing.
    const provisional = this.binding ?? {
      sessionId: "0".repeat(43),
      ownerId: this.owner?.id ?? "unknown",
      expiresAt: Date.now() + config.sessionTtlSeconds * 1000,
      ...(this.pendingSignIn ? { signedInUser: this.pendingSignIn } : {}),
    };
    const precheck = sealable(this.current, provisional);
    if (!precheck.ok) {
      throw new ApiError(
        "session_unstorable",
        `The session cannot be stored: ${precheck.issue}. Nothing was kept from this call.`,
      );
    }
    const binding = this.binding ?? (await this.createRow(clientAddress));
    const remainingSeconds = Math.ceil((binding.expiresAt - Date.now()) / 1000);
    if (remainingSeconds <= 0) {
      // The lifetime ran out during this request: the session is over, not renewed.
      if (this.hadCookie) response.headers.append("Set-Cookie", serializeExpiredSessionCookie(this.secure));
      return response;
    }
    const checked = sealable(this.current, binding);
    if (!checked.ok) {
      throw new ApiError(
        "session_unstorable",
        `The session cannot be stored: ${checked.issue}. Nothing was kept from this call.`,
      );
    }
    const value = await seal(checked.sealed, config.sessionPasswords, remainingSeconds);
    const header = serializeSessionCookie(value, this.secure, remainingSeconds);
    if (header.length > MAX_SET_COOKIE_BYTES) {
      throw new ApiError(
        "token_too_large",
        `The session cookie would be ${header.length} bytes, over the ${MAX_SET_COOKIE_BYTES}-byte limit ` +
          `browsers keep; the upstream's access token is ${this.current.token?.accessToken.length ?? 0} ` +
          "characters long.",
      );
    }
    this.context.seals.set(value, { state: this.current, binding, passwordIndex: 0 });
    response.headers.append("Set-Cookie", header);
    return response;
  }

  private async createRow(clientAddress: string | null): Promise<SessionBinding> {
    const owner = this.owner;
    if (!owner) throw new Error("A session that holds something needs an owner before it is stored.");
    // A proxy user's page: its first calls, answered before any of them set the cookie, share one row.
    const recent =
      this.context.config.authMode === "proxy"
        ? await this.context.store.recentFor(owner.id, clientAddress, PAGE_START_SECONDS)
        : null;
    if (recent && recent.roles.join(",") === owner.roles.join(",")) {
      this.binding = { sessionId: recent.id, ownerId: recent.userId, expiresAt: recent.expiresAt.getTime() };
      return this.binding;
    }
    const row = await this.context.store.create({
      userId: owner.id,
      roles: owner.roles,
      clientAddress,
      ...(this.pendingIdToken ? { idToken: this.pendingIdToken } : {}),
    });
    this.binding = {
      sessionId: row.id,
      ownerId: row.userId,
      expiresAt: row.expiresAt.getTime(),
      ...(this.pendingSignIn ? { signedInUser: this.pendingSignIn } : {}),
    };
    this.pendingSignIn = undefined;
    this.pendingIdToken = undefined;
    await this.context.onCreated?.(row);
    return this.binding;
  }
}

function isEmpty(state: SessionState): boolean {
  return !state.environment && !state.credentials && !state.token;
}

/** An empty session for this request (the browser's cookie, if any, is replaced or removed when it changes). */
export function emptySession(
  request: Pick<Request, "headers" | "url">,
  context: SessionContext,
  replaceCookie = false,
): Session {
  const secure = isSecureRequest(request, context.config);
  return new Session(
    {},
    secure,
    readCookie(request, cookieName(secure)) !== null,
    context,
    undefined,
    replaceCookie,
  );
}

export async function getSession(
  request: Pick<Request, "headers" | "url">,
  context: SessionContext,
): Promise<Session> {
  const { store, config } = context;
  const secure = isSecureRequest(request, config);
  const value = readCookie(request, cookieName(secure));
  if (!value) return new Session({}, secure, false, context);
  // Unreadable, not ours, or over: an empty session, and the cookie is removed at the end of this request.
  const over = (endedNow?: EndedSession, reason?: EndReason, ownerId?: string) =>
    new Session({}, secure, true, context, undefined, true, endedNow, reason ?? endedNow?.reason, ownerId);
  if (value.length > MAX_COOKIE_VALUE_LENGTH) return over();

  const cache = context.seals;
  let opened = cache.get(value);
  if (!opened) {
    const unsealed = await unseal(value, config.sessionPasswords);
    const parsed = unsealed ? fromSealed(unsealed.data) : null;
    if (!unsealed || !parsed) return over();
    opened = { ...parsed, passwordIndex: unsealed.passwordIndex };
    cache.set(value, opened);
  }
  // The liveness check is never skipped, not even for a cookie past its own end (the row is then ended and the
  // end audited once): a sign-out elsewhere must hold here at once.
  const result = await store.check(opened.binding.sessionId);
  if (!("live" in result)) {
    cache.delete(value);
    if ("endedNow" in result) return over({ reason: result.endedNow, userId: result.userId });
    return over(undefined, result.reason, opened.binding.ownerId);
  }
  if (result.live.userId !== opened.binding.ownerId || opened.binding.expiresAt <= Date.now()) return over();
  const binding: SessionBinding = { ...opened.binding, expiresAt: result.live.expiresAt.getTime() };
  // Opened by an older password: reseal with the newest at the end of this request.
  return new Session(opened.state, secure, true, context, binding, opened.passwordIndex > 0);
}
