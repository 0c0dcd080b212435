/**
 * The identity layer's settings, built by the integrator from the server configuration (docs/design.md §3): the
 * modules here read no environment variable themselves, so tests can hand them any provider or proxy.
 * Build the object once per process: the provider's discovery document is cached per `OidcSettings` object.
 */
import type { CustomFetch } from "openid-client";
import type { RoleGroups } from "./roles";

export interface OidcSettings {
  /** `OIDC_ISSUER`: the issuer identifier; discovery reads `${issuer}/.well-known/openid-configuration`. */
  issuer: string;
  /** `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET`: a confidential client (client_secret_basic). */
  clientId: string;
  clientSecret: string;
  /** `${PUBLIC_URL}/api/auth/callback`, registered at the provider. */
  redirectUri: string;
  /** `OIDC_GROUPS_CLAIM`: the ID-token or userinfo claim that lists the user's groups (default `groups`). */
  groupsClaim: string;
  /** `OIDC_DISPLAY_NAME`: how the sign-in button names the provider (e.g. "Acme SSO"); else the issuer's host. */
  displayName?: string;
  /** Scopes asked for; `openid` is always included. Default `openid profile email`. */
  scopes?: readonly string[];
  /** Where the provider sends the browser after RP-initiated logout (registered there), e.g. `${PUBLIC_URL}/`. */
  postLogoutRedirectUri?: string;
  /** Timeout of each call to the provider (discovery, token, userinfo, keys). Default 10 000 ms. */
  timeoutMs?: number;
  /**
   * The HTTP client for calls to the provider (default: global fetch): a deployment may route them through an
   * egress proxy; tests put a tampering man in the middle.
   */
  fetch?: CustomFetch;
}

interface ProxySettings {
  /** `PROXY_USER_HEADER` (default `X-Forwarded-User`). */
  userHeader: string;
  /** `PROXY_GROUPS_HEADER` (default `X-Forwarded-Groups`): comma-separated group names. */
  groupsHeader: string;
  /** `PROXY_SHARED_SECRET`: the proxy sends it as `X-Proxy-Secret`; unset means no identity is ever believed. */
  sharedSecret: string | undefined;
}

export type AuthSettings =
  | { mode: "none" }
  | { mode: "oidc"; oidc: OidcSettings; roleGroups: RoleGroups }
  | { mode: "proxy"; proxy: ProxySettings; roleGroups: RoleGroups };

export type OidcAuthSettings = Extract<AuthSettings, { mode: "oidc" }>;
export type ProxyAuthSettings = Extract<AuthSettings, { mode: "proxy" }>;

export const PROXY_SECRET_HEADER = "X-Proxy-Secret";
