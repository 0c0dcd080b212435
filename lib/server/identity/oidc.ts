/**
 * OpenID Connect sign-in (`AUTH_MODE=oidc`): the authorization code flow with PKCE, state and nonce, whose ID
 * token openid-client checks. Groups come from the ID token's `OIDC_GROUPS_CLAIM`, else from userinfo (providers
 * may leave them out of the token), and become roles through `ROLE_GROUPS`. The pending sign-in is the caller's
 * to keep bound to this browser (`./pending-sign-in`), so that a callback is only ever finished where it began.
 */
import "server-only";
import * as client from "openid-client";
import { z } from "zod";
import type { SignedInUser } from "./me";
import { safeReturnTo } from "./return-to";
import { rolesFromGroups } from "./roles";
import type { OidcAuthSettings, OidcSettings } from "./settings";

/** How long a started sign-in may take before its callback is refused. */
export const PENDING_SIGN_IN_TTL_SECONDS = 600;
const DEFAULT_SCOPES = ["openid", "profile", "email"];
const DEFAULT_TIMEOUT_MS = 10_000;
/** Discovery metadata is reused this long; a provider's endpoints and keys change rarely (keys are re-fetched). */
const DISCOVERY_CACHE_MS = 60 * 60 * 1000;

export const pendingSignInSchema = z
  .object({
    state: z.string().min(16).max(256),
    nonce: z.string().min(16).max(256),
    code_verifier: z.string().min(43).max(128),
    return_to: z.string().max(2048),
    /** Epoch milliseconds. */
    created_at: z.number().int().nonnegative(),
  })
  .strict();
export type PendingSignIn = z.infer<typeof pendingSignInSchema>;

export type SignInErrorCode =
  /** An administrator suspended this user (lib/server/session/suspensions): refused after the provider said who. */
  | "user_suspended"
  /** No or unusable pending sign-in, or a callback without a code: start again. */
  | "invalid_callback"
  /** The callback's state is not the one this browser started with (a forged or crossed callback). */
  | "state_mismatch"
  /** The pending sign-in is older than PENDING_SIGN_IN_TTL_SECONDS. */
  | "sign_in_expired"
  /** The provider answered the authorization request with an error (e.g. access_denied). */
  | "provider_error"
  /** The token endpoint refused the code (used already, expired, wrong PKCE verifier). */
  | "code_rejected"
  /** The provider's answer failed validation: ID token signature, issuer, audience, nonce, expiry, subject. */
  | "invalid_response"
  /** The provider could not be reached or its discovery document is unusable. */
  | "provider_unreachable";

export class SignInError extends Error {
  constructor(
    readonly code: SignInErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "SignInError";
  }
}

export interface BeginSignInResult {
  redirectUrl: string;
  pendingSignIn: PendingSignIn;
}

export interface CompleteSignInResult {
  user: SignedInUser;
  /** The validated `return_to` of the pending sign-in. */
  returnTo: string;
  /** The provider's ID token as received; the console does not keep it (sign-out names the user instead). */
  idToken: string | undefined;
}

export async function beginSignIn(
  settings: OidcAuthSettings,
  returnTo: string | null,
): Promise<BeginSignInResult> {
  const configuration = await providerConfiguration(settings.oidc);
  const codeVerifier = client.randomPKCECodeVerifier();
  const pendingSignIn: PendingSignIn = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    code_verifier: codeVerifier,
    return_to: safeReturnTo(returnTo),
    created_at: Date.now(),
  };
  const redirectUrl = client.buildAuthorizationUrl(configuration, {
    redirect_uri: settings.oidc.redirectUri,
    response_type: "code",
    scope: scopes(settings.oidc).join(" "),
    state: pendingSignIn.state,
    nonce: pendingSignIn.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
  });
  return { redirectUrl: redirectUrl.href, pendingSignIn };
}

export async function completeSignIn(
  settings: OidcAuthSettings,
  callbackUrl: string | URL,
  pendingSignIn: unknown,
  now: number = Date.now(),
): Promise<CompleteSignInResult> {
  const pending = readPendingSignIn(pendingSignIn, now);
  const answer = callbackAnswer(settings, callbackUrl, pending.state);
  const configuration = await providerConfiguration(settings.oidc);
  const tokens = await redeemCode(configuration, answer, pending);
  const claims = tokens.claims();
  if (!claims) throw new SignInError("invalid_response", "The identity provider returned no ID token.");
  const profile = await userProfile(settings, configuration, tokens.access_token, claims);
  const groups = groupsFromClaim(profile[settings.oidc.groupsClaim]);
  return {
    user: {
      id: claims.sub,
      name: displayName(profile, claims.sub),
      ...(typeof profile.email === "string" ? { email: profile.email } : {}),
      groups,
      roles: rolesFromGroups(groups, settings.roleGroups),
    },
    returnTo: safeReturnTo(pending.return_to),
    idToken: tokens.id_token,
  };
}

/** The sign-in this browser started, if it is well-formed and recent enough to finish. */
function readPendingSignIn(pendingSignIn: unknown, now: number): PendingSignIn {
  const pending = pendingSignInSchema.safeParse(pendingSignIn);
  if (!pending.success) throw new SignInError("invalid_callback", "No sign-in was started in this browser.");
  const createdAt = pending.data.created_at;
  if (now - createdAt > PENDING_SIGN_IN_TTL_SECONDS * 1000 || createdAt - now > 60_000) {
    throw new SignInError("sign_in_expired", "The sign-in took too long; start again.");
  }
  return pending.data;
}

/**
 * The provider's answer is read from the callback's query, but checked against the registered redirect URI
 * (the address this server sees may differ behind a proxy).
 */
function callbackAnswer(settings: OidcAuthSettings, callbackUrl: string | URL, state: string): URL {
  const params = new URL(callbackUrl).searchParams;
  if (params.get("state") !== state) {
    throw new SignInError(
      "state_mismatch",
      "The sign-in answer does not belong to the sign-in started here.",
    );
  }
  const providerError = params.get("error");
  if (providerError) {
    const description = params.get("error_description");
    throw new SignInError(
      "provider_error",
      `The identity provider refused the sign-in: ${providerError}${description ? ` (${description})` : ""}.`,
    );
  }
  if (!params.get("code")) throw new SignInError("invalid_callback", "The sign-in answer holds no code.");
  const answer = new URL(settings.oidc.redirectUri);
  answer.search = params.toString();
  return answer;
}

async function redeemCode(configuration: client.Configuration, answer: URL, pending: PendingSignIn) {
  try {
    return await client.authorizationCodeGrant(configuration, answer, {
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      pkceCodeVerifier: pending.code_verifier,
      idTokenExpected: true,
    });
  } catch (error) {
    throw classifyProviderFailure(error);
  }
}

/** The ID token's claims, completed from the userinfo endpoint when they do not carry the groups claim. */
async function userProfile(
  settings: OidcAuthSettings,
  configuration: client.Configuration,
  accessToken: string,
  claims: client.IDToken,
): Promise<Record<string, unknown>> {
  if (settings.oidc.groupsClaim in claims) return claims;
  try {
    return { ...(await client.fetchUserInfo(configuration, accessToken, claims.sub)), ...claims };
  } catch (error) {
    throw classifyProviderFailure(error);
  }
}

/**
 * The provider's RP-initiated logout address, or null when it offers none (the console session still ends).
 * The browser follows it, so it never carries the ID token (`id_token_hint` would hand it to the browser): it
 * names the client (`client_id`) and, when known, the user by their subject at the provider (`logout_hint`),
 * which lets the provider end the right session; it then asks the user to confirm, as it may without a token.
 */
export async function signOutUrl(settings: OidcAuthSettings, subject?: string): Promise<string | null> {
  const configuration = await providerConfiguration(settings.oidc);
  if (!configuration.serverMetadata().end_session_endpoint) return null;
  const parameters: Record<string, string> = { client_id: settings.oidc.clientId };
  if (subject) parameters.logout_hint = subject;
  if (settings.oidc.postLogoutRedirectUri)
    parameters.post_logout_redirect_uri = settings.oidc.postLogoutRedirectUri;
  return client.buildEndSessionUrl(configuration, parameters).href;
}

/**
 * A groups claim as providers send it: a list of names, or one name as a string. Each name is kept exactly as
 * sent (no trimming, no splitting on commas): `ROLE_GROUPS` matches names exactly, and a looser reading would
 * grant a role to a group such as `Finance, console-admins` that the administrator never named.
 */
export function groupsFromClaim(value: unknown): string[] {
  const names: unknown[] = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  return [...new Set(names.filter((name): name is string => typeof name === "string"))].filter(
    (name) => name.length > 0 && name.length <= 256,
  );
}

function displayName(profile: Record<string, unknown>, sub: string): string {
  for (const key of ["name", "preferred_username", "email"]) {
    const value = profile[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return sub;
}

function scopes(settings: OidcSettings): string[] {
  return [...new Set(["openid", ...(settings.scopes ?? DEFAULT_SCOPES)])];
}

function classifyProviderFailure(error: unknown): SignInError {
  if (error instanceof SignInError) return error;
  if (error instanceof client.ResponseBodyError) {
    const code = error.error === "invalid_grant" ? "code_rejected" : "provider_error";
    return new SignInError(code, `The identity provider refused the sign-in: ${error.error}.`, {
      cause: error,
    });
  }
  if (error instanceof client.WWWAuthenticateChallengeError) {
    // The token or userinfo endpoint refused our credentials (a wrong OIDC_CLIENT_SECRET: invalid_client).
    const challenge =
      error.cause.find((item) => item.parameters.error)?.parameters.error ?? `HTTP ${error.status}`;
    return new SignInError("provider_error", `The identity provider refused the sign-in: ${challenge}.`, {
      cause: error,
    });
  }
  if (error instanceof client.AuthorizationResponseError) {
    return new SignInError("provider_error", `The identity provider refused the sign-in: ${error.error}.`, {
      cause: error,
    });
  }
  if (error instanceof client.ClientError && error.code === "OAUTH_TIMEOUT") {
    return new SignInError("provider_unreachable", "The identity provider did not answer in time.", {
      cause: error,
    });
  }
  if (error instanceof TypeError || (error instanceof Error && error.name === "AbortError")) {
    return new SignInError("provider_unreachable", "The identity provider could not be reached.", {
      cause: error,
    });
  }
  return new SignInError("invalid_response", "The identity provider's answer failed validation.", {
    cause: error,
  });
}

// ---------- provider configuration (discovery), cached per settings object ----------

interface CachedConfiguration {
  configuration: Promise<client.Configuration>;
  expiresAt: number;
}

const configurations = new WeakMap<OidcSettings, CachedConfiguration>();

function providerConfiguration(settings: OidcSettings): Promise<client.Configuration> {
  const cached = configurations.get(settings);
  if (cached && cached.expiresAt > Date.now()) return cached.configuration;
  const configuration = discover(settings);
  configurations.set(settings, { configuration, expiresAt: Date.now() + DISCOVERY_CACHE_MS });
  // A failed discovery is not cached: the next sign-in tries again.
  configuration.catch(() => {
    if (configurations.get(settings)?.configuration === configuration) configurations.delete(settings);
  });
  return configuration;
}

async function discover(settings: OidcSettings): Promise<client.Configuration> {
  const issuer = new URL(settings.issuer);
  const options: client.DiscoveryRequestOptions = {
    timeout: Math.ceil((settings.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000),
    execute: [
      // openid-client trusts TLS for an ID token fetched from the token endpoint; we also check its signature
      // against the provider's published keys, so a TLS-terminating egress proxy cannot alter the groups.
      client.enableNonRepudiationChecks,
      // Plain http only to a provider on this machine (development, tests); anything else must be https.
      ...(issuer.protocol === "http:" && isLoopbackHost(issuer.hostname)
        ? [client.allowInsecureRequests]
        : []),
    ],
  };
  if (settings.fetch) options[client.customFetch] = settings.fetch;
  try {
    return await client.discovery(
      issuer,
      settings.clientId,
      undefined,
      client.ClientSecretBasic(settings.clientSecret),
      options,
    );
  } catch (error) {
    throw new SignInError(
      "provider_unreachable",
      `The identity provider at ${issuer.origin} could not be used.`,
      {
        cause: error,
      },
    );
  }
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}
