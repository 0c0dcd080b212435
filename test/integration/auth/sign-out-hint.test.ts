/**
 * AUTH_MODE=oidc on the production build: the provider's ID token is kept in the session's server-side row
 * (the browser's cookie is only a sealed session id) and sent as id_token_hint on RP-initiated logout, which the
 * in-process provider accepts. A refused call's audit row names the environment the request named.
 */
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { allAuditRows, api, signIn, startOidcTeam, stopTeam, type Team } from "./team-console.support";

let sandbox: SandboxServer;
let team: Team;
let url: string;

beforeAll(async () => {
  sandbox = await startSandboxServer({ port: 0 });
  team = await startOidcTeam({ count: 1, sandboxUrl: sandbox.url });
  url = team.consoles[0]!.url;
});
afterAll(async () => {
  await stopTeam(team);
  await sandbox?.close();
});

describe("sign-out at the provider", () => {
  it("sends the ID token of this session as id_token_hint, and the provider accepts it", async () => {
    const alice = await signIn(url, "alice");
    const cookie = alice.header() ?? "";
    expect(cookie).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    const out = await api<{ redirect: string }>(url, alice, "POST", "/api/auth/logout", {});
    expect(out.status).toBe(200);
    const redirect = new URL(out.body.redirect);
    expect(redirect.origin).toBe(team.provider.issuer);
    const hint = redirect.searchParams.get("id_token_hint") ?? "";
    expect(decodeJwt(hint)).toMatchObject({ sub: "alice", aud: team.provider.clientId });
    // The provider's "sign out?" page: it knows whose session to end (a bad hint is a 400 there).
    expect((await fetch(redirect, { redirect: "manual" })).status).toBe(200);

    // The session is over: a copy of its cookie signs out nobody and carries no hint.
    const again = await api<{ redirect: string }>(url, null, "POST", "/api/auth/logout", {}, { cookie });
    expect(new URL(again.body.redirect, url).searchParams.get("id_token_hint")).toBeNull();
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
