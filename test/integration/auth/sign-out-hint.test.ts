/**
 * AUTH_MODE=oidc on the production build: the provider's ID token never reaches the browser, not in the cookie
 * and not in the RP-initiated logout address, which names the client (`client_id`) and the user (`logout_hint`,
 * their subject) instead; the in-process provider accepts it. A refused call's audit row names the environment
 * the request named.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

describe("sign-out at the provider", () => {
  it("names the client and the user, never the ID token, and the provider accepts it", async () => {
    const alice = await signIn(url, "alice");
    const cookie = alice.header() ?? "";
    expect(cookie).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    const out = await api<{ redirect: string }>(url, alice, "POST", "/api/auth/logout", {});
    expect(out.status).toBe(200);
    const redirect = new URL(out.body.redirect);
    expect(redirect.origin).toBe(team.provider.issuer);
    expect(redirect.searchParams.get("id_token_hint")).toBeNull();
    expect(out.body.redirect).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    expect(Object.fromEntries(redirect.searchParams)).toEqual({
      client_id: team.provider.clientId,
      logout_hint: "alice",
      post_logout_redirect_uri: `${url}/signed-out`,
    });
    // The provider's "sign out?" page (an unknown client or an unregistered return address is a 400 there).
    expect((await fetch(redirect, { redirect: "manual" })).status).toBe(200);

    // The session is over: a copy of its cookie signs out nobody and names no user.
    const again = await api<{ redirect: string }>(url, null, "POST", "/api/auth/logout", {}, { cookie });
    expect(new URL(again.body.redirect, url).searchParams.get("logout_hint")).toBeNull();
  });
});

describe("refusals in the audit log", () => {
  it("a role refusal names the environment the request named", async () => {
    const sam = await signIn(url, "sam");
    const refused = await api(url, sam, "POST", "/api/inquiries/gift-balance", {
      card_number: "6006491000000001",
      location_id: "store-7",
      environment: "production",
    });
    expect(refused.status).toBe(403);
    const rows = await allAuditRows(url, await signIn(url, "alice"));
    expect(
      rows.find(
        (row) => row.event === "refused" && row.user_id === "sam" && row.reason === "forbidden_by_role",
      ),
    ).toMatchObject({ environment: "production" });
  });
});
