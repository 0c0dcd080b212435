/**
 * What the session cookie holds, validated with zod when unsealed: a cookie that does not match is an empty
 * session. Keys are short because the sealed cookie must stay under 4 KB with a large access token.
 */
import "server-only";
import { z } from "zod";
import { ENVIRONMENTS, type EnvironmentName } from "@/lib/api/contracts";

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

export type SessionCredentials = { kind: "demo" } | { kind: "user"; clientId: string; clientSecret: string };

export interface SessionState {
  environment?: EnvironmentName;
  credentials?: SessionCredentials;
  token?: AccessToken;
}

const record = z.record(z.string(), z.unknown());

const sealedSchema = z.object({
  v: z.literal(1),
  /** Epoch milliseconds after which the session is over (the seal's own expiry is the same). */
  exp: z.number().int(),
  env: z.enum(ENVIRONMENTS).optional(),
  cred: z
    .union([
      z.object({ k: z.literal("demo") }),
      z.object({ k: z.literal("user"), id: z.string().min(1).max(200), s: z.string().min(1).max(500) }),
    ])
    .optional(),
  tok: z
    .object({
      at: z.string().min(1).max(8192),
      ty: z.string().max(64),
      sc: z.string().max(2048),
      ei: z.number().int().nonnegative(),
      ia: z.number().int().nonnegative(),
      ck: z.string().min(1).max(64),
      m: record.nullable(),
      j: record.nullable(),
    })
    .optional(),
});

export type SealedSession = z.infer<typeof sealedSchema>;

export function toSealed(state: SessionState, expiresAt: number): SealedSession {
  const { environment, credentials, token } = state;
  return {
    v: 1,
    exp: expiresAt,
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
export function fromSealed(data: unknown): { state: SessionState; expiresAt: number } | null {
  const parsed = sealedSchema.safeParse(data);
  if (!parsed.success) return null;
  const { exp, env, cred, tok } = parsed.data;
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
  return { state, expiresAt: exp };
}
