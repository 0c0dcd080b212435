/**
 * Drives a console in AUTH_MODE=oidc over HTTP: sign in at the in-process provider, call the API with the
 * browser's cookie jar, read the audit log as an admin.
 */
import { expect } from "vitest";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { freePort, startConsole, type ConsoleServer } from "@/test/support/console-server";
import { startTestProvider, TEST_ACCOUNTS, type TestProvider } from "@/test/support/oidc-provider";
import { CookieJar, jarFetch, signInAtProvider } from "./provider-driver";

export const AUDIT_HMAC_KEY = "integration-audit-hmac-key-of-at-least-32-chars";
const ROLE_GROUPS = "admin:console-admins,tester:certification,engineer:developers,support:support-desk";

export interface Team {
  provider: TestProvider;
  consoles: ConsoleServer[];
}

export interface TeamOptions {
  count: number;
  sandboxUrl: string;
  /** A PostgreSQL database all consoles share; PGlite (one console) without it. */
  databaseUrl?: string;
  env?: Record<string, string>;
}

/**
 * `count` consoles in AUTH_MODE=oidc on one database, each with its own address (PUBLIC_URL) registered at one
 * in-process provider, the groups mapped to roles by ROLE_GROUPS, the sandbox as upstream.
 */
export async function startOidcTeam({
  count,
  sandboxUrl,
  databaseUrl,
  env = {},
}: TeamOptions): Promise<Team> {
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const urls = ports.map((port) => `http://localhost:${port}`);
  const provider = await startTestProvider({
    redirectUris: urls.map((url) => `${url}/api/auth/callback`),
    postLogoutRedirectUris: urls.map((url) => `${url}/signed-out`),
  });
  const consoles = await Promise.all(
    ports.map((port, index) =>
      startConsole({
        AUTH_MODE: "oidc",
        HOSTNAME: "127.0.0.1",
        PORT: String(port),
        PUBLIC_URL: urls[index]!,
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        ROLE_GROUPS,
        CARD_API_AUTH_URL: sandboxUrl,
        CARD_API_PRODUCTION_URL: sandboxUrl,
        CARD_API_CLIENT_ID: "demo-client",
        CARD_API_CLIENT_SECRET: "demo-secret",
        AUDIT_HMAC_KEY,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...env,
      }),
    ),
  );
  return { provider, consoles };
}

/** One console of a team on a standalone sandbox of its own, for a file that needs just that; stop with stopTeam. */
export async function startOneOidcConsoleOnSandbox(
  env: Record<string, string> = {},
): Promise<Team & { sandbox: SandboxServer; url: string }> {
  const sandbox = await startSandboxServer({ port: 0 });
  const team = await startOidcTeam({ count: 1, sandboxUrl: sandbox.url, env });
  return { ...team, sandbox, url: team.consoles[0]!.url };
}

export async function stopTeam(team: (Team & { sandbox?: SandboxServer }) | undefined): Promise<void> {
  if (!team) return;
  await Promise.all(team.consoles.map((server) => server.stop()));
  await team.provider.close();
  await team.sandbox?.close();
}

export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** Signs `username` in through the console's /api/auth/login and /api/auth/callback; the console's jar. */
export async function signIn(
  consoleUrl: string,
  username: string,
  returnTo = "/inquiry",
): Promise<CookieJar> {
  const jar = new CookieJar();
  const login = await jarFetch(jar, `${consoleUrl}/api/auth/login?return_to=${encodeURIComponent(returnTo)}`);
  expect(login.status).toBe(302);
  const account = TEST_ACCOUNTS[username];
  if (!account) throw new Error(`no test account ${username}`);
  const callbackUrl = await signInAtProvider(
    login.headers.get("location") ?? "",
    `${consoleUrl}/api/auth/callback`,
    username,
    account.password,
  );
  const callback = await jarFetch(jar, callbackUrl);
  expect(callback.status).toBe(302);
  expect(callback.headers.get("location")).toBe(returnTo);
  return jar;
}

export async function api<T = Record<string, unknown>>(
  consoleUrl: string,
  jar: CookieJar | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiAnswer<T>> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (method !== "GET") {
    (init.headers as Record<string, string>).origin = consoleUrl;
    if (body !== undefined) {
      (init.headers as Record<string, string>)["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
  }
  const response = jar
    ? await jarFetch(jar, `${consoleUrl}${path}`, init)
    : await fetch(`${consoleUrl}${path}`, { ...init, redirect: "manual" });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // CSV or empty
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

export interface AuditRowJson {
  seq: number;
  user_id: string | null;
  roles: string[];
  event: string;
  environment: string | null;
  card: string | null;
  card_hash: string | null;
  upstream_status: number | null;
  request_id: string | null;
  outcome: string;
  reason: string | null;
}

/** Every row of the log (newest first), paging with the cursor. */
export async function allAuditRows(consoleUrl: string, adminJar: CookieJar): Promise<AuditRowJson[]> {
  const rows: AuditRowJson[] = [];
  let cursor: string | null = null;
  do {
    const page: ApiAnswer<{ rows: AuditRowJson[]; next_cursor: string | null }> = await api(
      consoleUrl,
      adminJar,
      "GET",
      `/api/audit?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
    );
    expect(page.status).toBe(200);
    rows.push(...page.body.rows);
    cursor = page.body.next_cursor;
  } while (cursor);
  return rows;
}
