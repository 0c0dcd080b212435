/**
 * The sign-in routes as the console wires them (`startSignIn` / `finishSignIn` behind `GET /api/auth/login` and
 * `GET /api/auth/callback`), on a minimal HTTP server standing in for the console, against the in-process
 * provider: with a cookie-keeping fetch (two "browsers" for login CSRF), and once in a real Chromium.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userStorageKey } from "@/lib/server/identity/user-key";
import { meResponse, type SignedInUser } from "@/lib/server/identity/me";
import type { OidcAuthSettings } from "@/lib/server/identity/settings";
import { finishSignIn, startSignIn, type SignInFlowOptions } from "@/lib/server/identity/sign-in-flow";
import { launchBrowser } from "@/test/support/browser";
import {
  TEST_ACCOUNTS,
  TEST_ROLE_GROUPS,
  startTestProvider,
  type TestProvider,
} from "@/test/support/oidc-provider";
import { CookieJar, followUntil, jarFetch, signInAtProvider } from "./provider-driver";

const flowOptions: SignInFlowOptions = {
  passwords: ["a-session-password-of-at-least-32-characters"],
  secure: false,
};

let consoleServer: Server;
let consoleUrl: string;
let provider: TestProvider;
let settings: OidcAuthSettings;
/** The stand-in console's sessions: id → user (the real console keeps them in its sessions table). */
const sessions = new Map<string, SignedInUser>();

async function handleConsole(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === "/api/auth/login") return startSignIn(settings, request, flowOptions);
  if (url.pathname === "/api/auth/callback") {
    const result = await finishSignIn(settings, request, flowOptions);
    const headers = new Headers({ "Cache-Control": "no-store" });
    headers.append("Set-Cookie", result.clearCookie);
    if (!result.ok) {
      return Response.json(
        { error: { code: result.error.code, message: result.error.message } },
        { status: 400, headers },
      );
    }
    const sessionId = randomUUID();
    sessions.set(sessionId, result.signIn.user);
    headers.append("Set-Cookie", `test_session=${sessionId}; Path=/; HttpOnly; SameSite=Lax`);
    headers.set("Location", result.signIn.returnTo);
    return new Response(null, { status: 303, headers });
  }
  const sessionId = /(?:^|;\s*)test_session=([\w-]+)/.exec(request.headers.get("cookie") ?? "")?.[1];
  const user = (sessionId && sessions.get(sessionId)) || null;
  if (url.pathname === "/api/me")
    return Response.json(meResponse(user, "oidc", ["embedded", "production"], userStorageKey));
  const body = user
    ? `<h1>Signed in as ${user.name}</h1><p>Roles: ${user.roles.join(", ") || "none"}</p>`
    : "<h1>Not signed in</h1>";
  return new Response(`<!doctype html><title>Console</title><main>${body}</main>`, {
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });
}

function toRequest(incoming: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return new Request(new URL(incoming.url ?? "/", consoleUrl), { method: incoming.method, headers });
}

async function send(response: Response, outgoing: ServerResponse): Promise<void> {
  outgoing.statusCode = response.status;
  for (const [name, value] of response.headers) if (name !== "set-cookie") outgoing.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) outgoing.setHeader("Set-Cookie", cookies);
  outgoing.end(Buffer.from(await response.arrayBuffer()));
}

beforeAll(async () => {
  consoleServer = createServer((incoming, outgoing) => {
    handleConsole(toRequest(incoming))
      .then((response) => send(response, outgoing))
      .catch((error: unknown) => {
        outgoing.statusCode = 500;
        outgoing.end(String(error));
      });
  });
  await new Promise<void>((resolve) => consoleServer.listen(0, "127.0.0.1", resolve));
  consoleUrl = `http://127.0.0.1:${(consoleServer.address() as AddressInfo).port}`;
  const redirectUri = `${consoleUrl}/api/auth/callback`;
  provider = await startTestProvider({ redirectUris: [redirectUri] });
  settings = {
    mode: "oidc",
    oidc: {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      redirectUri,
      groupsClaim: "groups",
    },
    roleGroups: TEST_ROLE_GROUPS,
  };
});

afterAll(async () => {
  await provider?.close();
  await new Promise<void>((resolve) => {
    consoleServer?.closeAllConnections();
    consoleServer?.close(() => resolve());
  });
});

/** Starts a sign-in in `jar`'s browser and signs in at the provider; returns the callback address, not yet opened. */
async function callbackFor(jar: CookieJar, username: string, returnTo = "/"): Promise<string> {
  const login = await jarFetch(jar, `${consoleUrl}/api/auth/login?return_to=${encodeURIComponent(returnTo)}`);
  expect(login.status).toBe(303);
  expect(login.headers.get("set-cookie")).toMatch(/^csc_sign_in=Fe26\.2\*.*; HttpOnly; SameSite=Lax$/);
  return signInAtProvider(
    login.headers.get("location") ?? "",
    `${consoleUrl}/api/auth/callback`,
    username,
    TEST_ACCOUNTS[username]?.password ?? "",
    jar,
  );
}

describe("sign-in routes", () => {
  it("login → provider form → callback → back where the user was, signed in with their roles", async () => {
    const jar = new CookieJar();
    const callbackUrl = await callbackFor(jar, "tess", "/certification?env=sandbox");
    const landed = await followUntil(jar, callbackUrl, "http://never.invalid");
    if (!("page" in landed)) throw new Error("expected a page");
    expect(landed.url).toBe(`${consoleUrl}/certification?env=sandbox`);
    expect(await landed.page.text()).toContain("Signed in as Tess Tester");
    expect(jar.header()).not.toContain("csc_sign_in"); // the pending sign-in is gone
    const me = await (await jarFetch(jar, `${consoleUrl}/api/me`)).json();
    expect(me).toMatchObject({
      user: { id: "tess", name: "Tess Tester", roles: ["tester"], signed_in_with: "oidc" },
    });
    expect(me.allows.confirm).toEqual({ embedded: [], production: ["gift_balance_inquiry"] });
  });

  it("login CSRF: a callback made in the attacker's browser and opened in the victim's is refused", async () => {
    const attacker = new CookieJar();
    const attackersCallback = await callbackFor(attacker, "eve");

    const victimWithoutSignIn = new CookieJar();
    const refused = await jarFetch(victimWithoutSignIn, attackersCallback);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: "invalid_callback" } });

    const victimSigningIn = new CookieJar();
    await jarFetch(victimSigningIn, `${consoleUrl}/api/auth/login`);
    const crossed = await jarFetch(victimSigningIn, attackersCallback);
    expect(crossed.status).toBe(400);
    expect(await crossed.json()).toMatchObject({ error: { code: "state_mismatch" } });
    expect((await (await jarFetch(victimSigningIn, `${consoleUrl}/api/me`)).json()).user).toBeNull();
  });

  it("a replayed callback with a copy of the pending cookie is refused (the code is single-use)", async () => {
    const jar = new CookieJar();
    const callbackUrl = await callbackFor(jar, "alice");
    const copiedCookie = jar.header() ?? "";
    expect((await jarFetch(jar, callbackUrl)).status).toBe(303);
    const replay = await fetch(callbackUrl, { headers: { Cookie: copiedCookie }, redirect: "manual" });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: { code: "code_rejected" } });
  });

  it("a user with no role signs in and /api/me says they may do nothing", async () => {
    const jar = new CookieJar();
    await followUntil(jar, await callbackFor(jar, "nobody"), "http://never.invalid");
    const me = await (await jarFetch(jar, `${consoleUrl}/api/me`)).json();
    expect(me).toMatchObject({
      user: { id: "nobody", roles: [] },
      allows: { global: [], environments: { embedded: [] } },
    });
  });

  it("in Chromium: a person fills the provider's form and lands signed in", async () => {
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${consoleUrl}/api/auth/login?return_to=%2Fsupport`);
      await page.getByLabel("User name").fill("sam");
      await page.getByLabel("Password").fill(TEST_ACCOUNTS.sam!.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Signed in as Sam Support" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/support");
      // Cookies are per host, not per port: the provider's own `_session` cookies share 127.0.0.1.
      const names = (await context.cookies(consoleUrl)).map((cookie) => cookie.name);
      expect(names).toContain("test_session");
      expect(names).not.toContain("csc_sign_in");
    } finally {
      await browser.close();
    }
  });
});
