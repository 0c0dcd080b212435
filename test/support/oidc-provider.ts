/**
 * A real OpenID Connect provider (`oidc-provider`) in this process on a free loopback port, for sign-in tests
 * (integration with a cookie-keeping fetch, and Chromium). One confidential client (client_secret_basic, PKCE
 * required), five accounts with a `groups` claim, and a plain sign-in form of our own instead of the library's
 * development screens: `<input name="username">`, `<input name="password">`, a "Sign in" button. Consent is
 * implied for the one first-party client, as an organisation's provider would configure it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";

export interface TestAccount {
  name: string;
  email: string;
  password: string;
  groups: string[];
}

export const TEST_ACCOUNTS: Record<string, TestAccount> = {
  alice: {
    name: "Alice Admin",
    email: "alice@example.test",
    password: "alice-password",
    groups: ["console-admins"],
  },
  sam: { name: "Sam Support", email: "sam@example.test", password: "sam-password", groups: ["support-desk"] },
  tess: {
    name: "Tess Tester",
    email: "tess@example.test",
    password: "tess-password",
    groups: ["certification"],
  },
  eve: { name: "Eve Engineer", email: "eve@example.test", password: "eve-password", groups: ["developers"] },
  nobody: { name: "Nobody", email: "nobody@example.test", password: "nobody-password", groups: [] },
};

/** The ROLE_GROUPS that fits these accounts. */
export const TEST_ROLE_GROUPS = {
  admin: ["console-admins"],
  tester: ["certification"],
  engineer: ["developers"],
  support: ["support-desk"],
} as const;

export interface TestProviderOptions {
  /** The console's callback address(es), e.g. `${PUBLIC_URL}/api/auth/callback`. */
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  clientId?: string;
  clientSecret?: string;
  /**
   * `true` (default): `groups` and the profile claims ride in the ID token. `false`: the ID token carries only
   * `sub` (the library's conforming default) and the console must read them from userinfo.
   */
  claimsInIdToken?: boolean;
}

export interface TestProvider {
  /** `http://127.0.0.1:<port>`: the issuer identifier. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  const clientId = options.clientId ?? "card-services-console";
  const clientSecret = options.clientSecret ?? "console-client-secret-for-tests";

  // The provider needs its issuer (with the port) at construction; the server is bound first.
  let handle: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => {
    response.statusCode = 503;
    response.end();
  };
  const server: Server = createServer((request, response) => handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: "test-signing-key", alg: "RS256", use: "sig" };

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        token_endpoint_auth_method: "client_secret_basic",
        grant_types: ["authorization_code"],
        response_types: ["code"],
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: ["test-provider-cookie-key-not-secret"] },
    pkce: { required: () => true },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    claims: {
      openid: ["sub"],
      profile: ["name", "preferred_username", "groups"],
      email: ["email"],
    },
    conformIdTokenClaims: options.claimsInIdToken === false,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, accountId) {
      const account = TEST_ACCOUNTS[accountId];
      if (!account) return undefined;
      return {
        accountId,
        claims: async () => ({
          sub: accountId,
          name: account.name,
          preferred_username: accountId,
          email: account.email,
          groups: account.groups,
        }),
      };
    },
    // The console is a first-party client: its grant is implied, no consent screen.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session, provider } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return provider.Grant.find(grantId);
      const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope("openid profile email");
      await grant.save();
      return grant;
    },
    // Keep test output quiet: the library's defaults log a warning per development-only choice.
    renderError(ctx, out) {
      ctx.type = "html";
      ctx.body = `<!doctype html><title>Sign-in error</title><h1>${escapeHtml(String(out.error))}</h1><p>${escapeHtml(
        String(out.error_description ?? ""),
      )}</p>`;
    },
  };

  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  handle = (request, response) => {
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(new URL(request.url ?? "/", issuer).pathname);
    if (!match) {
      void callback(request, response);
      return;
    }
    handleInteraction(provider, request, response, match[2] !== undefined).catch((error: unknown) => {
      response.statusCode = 400;
      response.setHeader("Content-Type", "text/plain; charset=utf-8");
      response.end(error instanceof Error ? error.message : "interaction failed");
    });
  };

  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function handleInteraction(
  provider: Provider,
  request: IncomingMessage,
  response: ServerResponse,
  isSubmit: boolean,
): Promise<void> {
  const details = await provider.interactionDetails(request, response);
  if (details.prompt.name !== "login") {
    // Only the first-party client exists and its grant is implied (loadExistingGrant): finish any other prompt.
    await provider.interactionFinished(request, response, {}, { mergeWithLastSubmission: true });
    return;
  }
  if (request.method === "POST" && isSubmit) {
    const form = new URLSearchParams(await readBody(request));
    const username = form.get("username") ?? "";
    const account = Object.hasOwn(TEST_ACCOUNTS, username) ? TEST_ACCOUNTS[username] : undefined;
    if (account && account.password === form.get("password")) {
      await provider.interactionFinished(
        request,
        response,
        { login: { accountId: username } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    sendLoginForm(response, details.uid, 401, "Unknown user name or wrong password.");
    return;
  }
  sendLoginForm(response, details.uid, 200);
}

function sendLoginForm(response: ServerResponse, uid: string, status: number, error?: string): void {
  response.statusCode = status;
  response.setHeader("Content-Type", "text/html; charset=utf-8");
  response.setHeader("Cache-Control", "no-store");
  response.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test provider sign-in</title></head>
<body><main>
<h1>Sign in to the test provider</h1>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/interaction/${encodeURIComponent(uid)}/login">
<label>User name <input name="username" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>
</main></body></html>`);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 16_384) throw new Error("form too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] ?? character,
  );
}
