/**
 * Drives a console in AUTH_MODE=oidc over HTTP: sign in at the in-process provider, call the API with the
 * browser's cookie jar, read the audit log as an admin.
 */
import { expect } from "vitest";
import { TEST_ACCOUNTS } from "@/test/support/oidc-provider";
import { CookieJar, jarFetch, signInAtProvider } from "./provider-driver";

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
