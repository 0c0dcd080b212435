/**
 * A console behind a trusted reverse proxy (AUTH_MODE=proxy): the proxy's headers sign a user in on every
 * request, so a test picks its user and groups per call. Each file passes its own shared secret (a file never
 * sees another's users) and role groups, and whatever else it varies.
 */
import { startConsole, type ConsoleServer } from "./console-server";

export type ProxyHeaders = Record<string, string>;

/** The headers the proxy adds for `user` in `groups` (comma-separated), with the shared secret it proves. */
export function proxyIdentity(secret: string): (user: string, groups: string) => ProxyHeaders {
  return (user, groups) => ({
    "X-Forwarded-User": user,
    "X-Forwarded-Groups": groups,
    "X-Proxy-Secret": secret,
  });
}

export interface ProxyConsoleOptions {
  secret: string;
  /** `role:group` pairs, as ROLE_GROUPS takes them. */
  roleGroups: string;
  /** Anything else the file varies; it wins over the defaults here (e.g. TRUSTED_PROXIES). */
  env?: Record<string, string | undefined>;
}

/** The environment of a proxy console on loopback that trusts the test process (IPv4 and IPv6). */
export function proxyConsoleEnv({
  secret,
  roleGroups,
  env = {},
}: ProxyConsoleOptions): Record<string, string | undefined> {
  return {
    AUTH_MODE: "proxy",
    HOSTNAME: "127.0.0.1",
    PROXY_SHARED_SECRET: secret,
    TRUSTED_PROXIES: "127.0.0.1/32,::1/128",
    ROLE_GROUPS: roleGroups,
    ...env,
  };
}

/** Starts a console behind the test process playing the proxy; stop it in `afterAll`. */
export function startProxyConsole(options: ProxyConsoleOptions): Promise<ConsoleServer> {
  return startConsole(proxyConsoleEnv(options));
}
