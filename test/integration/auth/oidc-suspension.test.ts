/**
 * A suspension in AUTH_MODE=oidc: the user's sessions end at once (401 `revoked`), signing in again is refused
 * (to /signed-out?error=user_suspended, audited `sign_in_failed`), and after the admin lifts it they sign in.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { TEST_ACCOUNTS } from "@/test/support/oidc-provider";
import { CookieJar, jarFetch, signInAtProvider } from "./provider-driver";
import { allAuditRows, api, signIn, startOneOidcConsoleOnSandbox, stopTeam } from "./team-console.support";

let team: Awaited<ReturnType<typeof startOneOidcConsoleOnSandbox>>;
let url: string;

beforeAll(async () => {
  team = await startOneOidcConsoleOnSandbox();
  url = team.url;
});
afterAll(async () => {
  await stopTeam(team);
});

/** The callback's redirect for `username`: where the console sends the browser after the provider. */
async function signInLandsOn(username: string): Promise<string | null> {
  const jar = new CookieJar();
  const login = await jarFetch(jar, `${url}/api/auth/login?return_to=%2Fsupport`);
  const callbackUrl = await signInAtProvider(
    login.headers.get("location") ?? "",
    `${url}/api/auth/callback`,
    username,
    TEST_ACCOUNTS[username]!.password,
  );
  return (await jarFetch(jar, callbackUrl)).headers.get("location");
}

it("ends the user's sessions, refuses their sign-in until lifted, and audits both", async () => {
  const alice = await signIn(url, "alice");
  const sam = await signIn(url, "sam", "/support");
  expect((await api(url, sam, "GET", "/api/session")).status).toBe(200);

  const suspended = await api(url, alice, "POST", "/api/admin/suspensions", { user_id: "sam", minutes: 60 });
  expect(suspended.status).toBe(201);
  expect(suspended.body).toMatchObject({ sessions_ended: 1 });
  const ended = await api(url, sam, "GET", "/api/session");
  expect(ended.status).toBe(401);
  expect(ended.body).toMatchObject({ error: { code: "not_signed_in", details: { session_end: "revoked" } } });

  expect(await signInLandsOn("sam")).toBe("/signed-out?error=user_suspended");
  const failed = (await allAuditRows(url, alice)).find((row) => row.event === "sign_in_failed");
  expect(failed).toMatchObject({ user_id: "sam", reason: "user_suspended" });

  expect((await api(url, alice, "DELETE", "/api/admin/suspensions/sam")).status).toBe(200);
  expect(await signInLandsOn("sam")).toBe("/support");
});
