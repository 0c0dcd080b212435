/**
 * What the session cookie holds, validated with zod when unsealed: a cookie that does not match is an empty
 * session. Keys are short because the sealed cookie must stay under 4 KB with a large access token.
 */
import "server-only";
import { z } from "zod";
import { ENVIRONMENTS, type EnvironmentName } from "@/lib/shared/contracts";
import { TOKEN_LIMITS } from "@/lib/shared/card-api-schemas";

/** A token as the console keeps it. Only the server ever reads `accessToken`. */
export interface AccessToken {
  accessToken: string;
  tokenType: string;
  scope: string;
  expiresIn: number;
  /** Epoch milliseconds when the console received it. */
  issuedAt: number;
  /** Which credentials (and token endpoint) obtained it: a token is used only with the same ones. */
  credentialsKey: string;
  meta: Record<string, unknown> | null;
  jsonapi: Record<string, unknown> | null;
}

type SessionCredentials = { kind: "demo" } | { kind: "user"; clientId: string; clientSecret: string };

/** The user an OIDC sign-in stored in the session; roles are recomputed from the groups on every request. */
export interface SessionUser {
  id: string;
  name: string;
  email?: string;
  groups: string[];
}

/** What ties a cookie to its server-side row (lib/server/session/store) and to the user that row belongs to. */
export interface SessionBinding {
  /** The row's id: the bearer credential inside the sealed cookie. */
  sessionId: string;
  /** The row's user (the local user, the proxy's user, or the signed-in user). */
  ownerId: string;
  /** Epoch milliseconds: the absolute end, fixed when the row was created. */
  expiresAt: number;
  /** AUTH_MODE=oidc: who signed in. */
  signedInUser?: SessionUser;
}

export interface SessionState {
  environment?: EnvironmentName;
  credentials?: SessionCredentials;
  token?: AccessToken;
}

const record = z.record(z.string(), z.unknown());

const sealedSchema = z.object({
  v: z.literal(2),
  /** The server-side session row's id. */
  sid: z.string().min(32).max(64),
  /** The row's user id. */
  uid: z.string().min(1).max(256),
  /** Epoch milliseconds after which the session is over (the seal's own expiry is the same). */
  exp: z.number().int(),
  usr: z
    .object({
      id: z.string().min(1).max(256),
      n: z.string().min(1).max(256),
      e: z.string().max(256).optional(),
      g: z.array(z.string().max(256)).max(64),
    })
    .optional(),
  env: z.enum(ENVIRONMENTS).optional(),
  cred: z
    .union([
      z.object({ k: z.literal("demo") }),
      z.object({ k: z.literal("user"), id: z.string().min(1).max(200), s: z.string().min(1).max(500) }),
    ])
    .optional(),
  tok: z
    .object({
      at: z.string().min(1).max(TOKEN_LIMITS.accessTokenChars),
      ty: z.string().max(TOKEN_LIMITS.tokenTypeChars),
      sc: z.string().max(TOKEN_LIMITS.scopeChars),
      ei: z.number().int().nonnegative().max(TOKEN_LIMITS.expiresInSeconds),
      // Epoch milliseconds, well inside what a Date can hold (8.64e15).
      ia: z.number().int().nonnegative().max(4e15),
      ck: z.string().min(1).max(64),
      m: record.nullable(),
      j: record.nullable(),
    })
    .optional(),
});

export type SealedSession = z.infer<typeof sealedSchema>;

/**
 * The sealed form of a state, validated with the same schema that unsealing uses: a state that would be
 * silently dropped when read back (another instance, a restart) is refused now, with the reason.
 */
export function sealable(
  state: SessionState,
  binding: SessionBinding,
): { ok: true; sealed: SealedSession } | { ok: false; issue: string } {
  const parsed = sealedSchema.safeParse(toSealed(state, binding));
  if (parsed.success) return { ok: true, sealed: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, issue: `${issue?.path.join(".") ?? "(session)"}: ${issue?.message ?? "invalid"}` };
}

function toSealed(state: SessionState, binding: SessionBinding): SealedSession {
  const { environment, credentials, token } = state;
  const user = binding.signedInUser;
  return {
    v: 2,
    sid: binding.sessionId,
    uid: binding.ownerId,
    exp: binding.expiresAt,
    ...(user
      ? {
          usr: {
            id: user.id,
            n: user.name,
            ...(user.email ? { e: user.email } : {}),
            g: [...user.groups],
          },
        }
      : {}),
    ...(environment ? { env: environment } : {}),
    ...(credentials
      ? {
          cred:
            credentials.kind === "demo"
              ? { k: "demo" as const }
              : { k: "user" as const, id: credentials.clientId, s: credentials.clientSecret },
        }
      : {}),
    ...(token
      ? {
          tok: {
            at: token.accessToken,
            ty: token.tokenType,
            sc: token.scope,
            ei: token.expiresIn,
            ia: token.issuedAt,
            ck: token.credentialsKey,
            m: token.meta,
            j: token.jsonapi,
          },
        }
      : {}),
  };
}

/** Validates unsealed data; null when it is not a session this server wrote. */
export function fromSealed(data: unknown): { state: SessionState; binding: SessionBinding } | null {
  const parsed = sealedSchema.safeParse(data);
  if (!parsed.success) return null;
  const { sid, uid, exp, usr, env, cred, tok } = parsed.data;
  const binding: SessionBinding = {
    sessionId: sid,
    ownerId: uid,
    expiresAt: exp,
    ...(usr
      ? {
          signedInUser: {
            id: usr.id,
            name: usr.n,
            groups: usr.g,
            ...(usr.e ? { email: usr.e } : {}),
          },
        }
      : {}),
  };
  const state: SessionState = {};
  if (env) state.environment = env;
  if (cred) {
    state.credentials =
      cred.k === "demo" ? { kind: "demo" } : { kind: "user", clientId: cred.id, clientSecret: cred.s };
  }
  if (tok) {
    state.token = {
      accessToken: tok.at,
      tokenType: tok.ty,
      scope: tok.sc,
      expiresIn: tok.ei,
      issuedAt: tok.ia,
      credentialsKey: tok.ck,
      meta: tok.m,
      jsonapi: tok.j,
    };
  }
  return { state, binding };
}
