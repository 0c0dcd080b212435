/**
 * A team console signed in through the in-process OpenID provider, with server-held demo credentials against a
 * sandbox playing the real upstream: the setup the browser walks of each role share. Each file passes what it
 * varies (role groups, idle timeout, display name, rate limit).
 */
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { freePort, startConsole, type ConsoleServer } from "./console-server";
import { startTestProvider, type TestProvider } from "./oidc-provider";

export interface OidcTeamConsole {
  /** The console's public origin (`PUBLIC_URL`), on localhost. */
  url: string;
  server: ConsoleServer;
  provider: TestProvider;
  stop(): Promise<void>;
}

export async function startOidcTeamConsole(
  upstreamUrl: string,
  env: Record<string, string>,
): Promise<OidcTeamConsole> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const provider = await startTestProvider({
    redirectUris: [`${url}/api/auth/callback`],
    postLogoutRedirectUris: [`${url}/signed-out`],
  });
  const server = await startConsole({
    AUTH_MODE: "oidc",
    HOSTNAME: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: url,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    CARD_API_AUTH_URL: upstreamUrl,
    CARD_API_PRODUCTION_URL: upstreamUrl,
    CARD_API_CLIENT_ID: "demo-client",
    CARD_API_CLIENT_SECRET: "demo-secret",
    AUDIT_HMAC_KEY: "browser-test-audit-hmac-key-of-32-characters",
    ...env,
  });
  return {
    url,
    server,
    provider,
    async stop() {
      await server.stop();
      await provider.close();
    },
  };
}

export interface OidcTeamOnSandbox extends OidcTeamConsole {
  /** The standalone sandbox playing the real upstream (sandbox and production). */
  sandbox: SandboxServer;
}

/** A standalone sandbox and a team console on it, for a file of its own; `stop()` ends both. */
export async function startOidcTeamOnSandbox(env: Record<string, string>): Promise<OidcTeamOnSandbox> {
  const sandbox = await startSandboxServer({ port: 0 });
  const team = await startOidcTeamConsole(sandbox.url, env);
  return {
    ...team,
    sandbox,
    async stop() {
      await team.stop();
      await sandbox.close();
    },
  };
}
