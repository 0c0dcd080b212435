/**
 * OIDC sign-in end to end against a real OpenID provider (oidc-provider) on loopback: beginSignIn → the provider's
 * sign-in form → callback → completeSignIn, and the ways a callback can be forged, replayed or tampered with.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import {
  PENDING_SIGN_IN_TTL_SECONDS,
  SignInError,
  beginSignIn,
  completeSignIn,
  signOutUrl,
  type PendingSignIn,
} from "@/lib/server/identity/oidc";
import type { OidcAuthSettings } from "@/lib/server/identity/settings";
import {
  TEST_ACCOUNTS,
  TEST_ROLE_GROUPS,
  startTestProvider,
  type TestProvider,
} from "@/test/support/oidc-provider";
import { CookieJar, followUntil, signInAtProvider } from "./provider-driver";

const REDIRECT_URI = "http://127.0.0.1:3999/api/auth/callback";
const POST_LOGOUT_URI = "http://127.0.0.1:3999/";

let provider: TestProvider;
let userinfoProvider: TestProvider;

function settingsFor(
  testProvider: TestProvider,
  extra: Partial<OidcAuthSettings["oidc"]> = {},
): OidcAuthSettings {
  return {
    mode: "oidc",
    oidc: {
      issuer: testProvider.issuer,
      clientId: testProvider.clientId,
      clientSecret: testProvider.clientSecret,
      redirectUri: REDIRECT_URI,
      groupsClaim: "groups",
      postLogoutRedirectUri: POST_LOGOUT_URI,
      ...extra,
    },
    roleGroups: TEST_ROLE_GROUPS,
  };
}

let settings: OidcAuthSettings;

beforeAll(async () => {
  provider = await startTestProvider({
    redirectUris: [REDIRECT_URI],
    postLogoutRedirectUris: [POST_LOGOUT_URI],
  });
  userinfoProvider = await startTestProvider({ redirectUris: [REDIRECT_URI], claimsInIdToken: false });
  settings = settingsFor(provider);
});

afterAll(async () => {
  await provider?.close();
  await userinfoProvider?.close();
});

async function signIn(
  username: string,
  options: { settings?: OidcAuthSettings; returnTo?: string | null } = {},
): Promise<{ callbackUrl: string; pending: PendingSignIn; redirectUrl: string }> {
  const begun = await beginSignIn(options.settings ?? settings, options.returnTo ?? null);
  const account = TEST_ACCOUNTS[username];
  const callbackUrl = await signInAtProvider(
    begun.redirectUrl,
    REDIRECT_URI,
    username,
    account?.password ?? "x",
  );
  return { callbackUrl, pending: begun.pendingSignIn, redirectUrl: begun.redirectUrl };
}

async function signInError(promise: Promise<unknown>): Promise<SignInError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SignInError);
  return error as SignInError;
}

describe("sign-in with an OpenID provider", () => {
  it("asks for the code flow with PKCE S256, state, nonce and the registered redirect URI", async () => {
    const { redirectUrl, pendingSignIn } = await beginSignIn(settings, "/token");
    const url = new URL(redirectUrl);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("client_id")).toBe(provider.clientId);
    expect(url.searchParams.get("redirect_uri")).toBe(REDIRECT_URI);
    expect(url.searchParams.get("scope")?.split(" ")).toContain("openid");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("state")).toBe(pendingSignIn.state);
    expect(url.searchParams.get("nonce")).toBe(pendingSignIn.nonce);
    // The verifier and the client secret stay on the server.
    expect(redirectUrl).not.toContain(pendingSignIn.code_verifier);
    expect(redirectUrl).not.toContain(provider.clientSecret);
    expect(pendingSignIn.return_to).toBe("/token");
  });

  it.each([
    ["alice", ["admin"]],
    ["sam", ["support"]],
    ["tess", ["tester"]],
    ["eve", ["engineer"]],
  ] as const)("%s signs in and gets the roles of their groups", async (username, roles) => {
    const { callbackUrl, pending } = await signIn(username, { returnTo: "/inquiry?card=last#result" });
    expect(new URL(callbackUrl).searchParams.get("code")).toBeTruthy();
    const { user, returnTo, idToken } = await completeSignIn(settings, callbackUrl, pending);
    const account = TEST_ACCOUNTS[username]!;
    expect(user).toEqual({
      id: username,
      name: account.name,
      email: account.email,
      groups: account.groups,
      roles,
    });
    expect(returnTo).toBe("/inquiry?card=last#result");
    expect(decodeJwt(idToken ?? "").sub).toBe(username);
  });

  it("a user in no mapped group signs in with no role (not an error)", async () => {
    const { callbackUrl, pending } = await signIn("nobody");
    const { user } = await completeSignIn(settings, callbackUrl, pending);
    expect(user).toMatchObject({ id: "nobody", groups: [], roles: [] });
  });

  it("reads the groups from userinfo when the ID token does not carry them", async () => {
    const userinfoSettings = settingsFor(userinfoProvider);
    const { callbackUrl, pending } = await signIn("sam", { settings: userinfoSettings });
    const { user, idToken } = await completeSignIn(userinfoSettings, callbackUrl, pending);
    expect(decodeJwt(idToken ?? "")).not.toHaveProperty("groups");
    expect(user).toMatchObject({
      id: "sam",
      name: "Sam Support",
      groups: ["support-desk"],
      roles: ["support"],
    });
  });

  it("honours a configured groups claim name, and no such claim means no group", async () => {
    const renamed = settingsFor(provider, { groupsClaim: "roles_from_idp" });
    const { callbackUrl, pending } = await signIn("alice", { settings: renamed });
    const { user } = await completeSignIn(renamed, callbackUrl, pending);
    expect(user).toMatchObject({ id: "alice", groups: [], roles: [] });
  });

  it("a wrong password keeps the user at the provider's form", async () => {
    const { redirectUrl } = await beginSignIn(settings, null);
    const jar = new CookieJar();
    const first = await followUntil(jar, redirectUrl, REDIRECT_URI);
    if (!("page" in first)) throw new Error("expected the sign-in form");
    const action = /<form[^>]*action="([^"]+)"/.exec(await first.page.text())?.[1] ?? "";
    const refused = await followUntil(jar, new URL(action, first.url).href, REDIRECT_URI, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "alice", password: "wrong" }).toString(),
    });
    expect("page" in refused && refused.page.status).toBe(401);
  });
});

describe("forged, replayed and tampered callbacks are refused", () => {
  it("a callback whose state is not this browser's pending sign-in: state_mismatch", async () => {
    const victim = await beginSignIn(settings, null);
    const attacker = await signIn("eve");
    const error = await signInError(completeSignIn(settings, attacker.callbackUrl, victim.pendingSignIn));
    expect(error.code).toBe("state_mismatch");
  });

  it("a callback with no pending sign-in at all: invalid_callback", async () => {
    const { callbackUrl } = await signIn("eve");
    expect((await signInError(completeSignIn(settings, callbackUrl, null))).code).toBe("invalid_callback");
    expect((await signInError(completeSignIn(settings, callbackUrl, { state: "x" }))).code).toBe(
      "invalid_callback",
    );
  });

  it("a replayed code is refused by the provider: code_rejected", async () => {
    const { callbackUrl, pending } = await signIn("alice");
    await completeSignIn(settings, callbackUrl, pending);
    const error = await signInError(completeSignIn(settings, callbackUrl, pending));
    expect(error.code).toBe("code_rejected");
  });

  it("a wrong PKCE verifier is refused by the provider: code_rejected", async () => {
    const { callbackUrl, pending } = await signIn("alice");
    const forged = { ...pending, code_verifier: "x".repeat(43) };
    expect((await signInError(completeSignIn(settings, callbackUrl, forged))).code).toBe("code_rejected");
  });

  it("an ID token with another nonce is refused: invalid_response", async () => {
    const { callbackUrl, pending } = await signIn("alice");
    const forged = { ...pending, nonce: "another-nonce-of-this-browser-0123456789" };
    expect((await signInError(completeSignIn(settings, callbackUrl, forged))).code).toBe("invalid_response");
  });

  it("an ID token altered in transit (groups raised to admin) fails its signature: invalid_response", async () => {
    let tampered = 0;
    const tampering = settingsFor(provider, {
      fetch: async (url, options) => {
        const response = await fetch(url, options as RequestInit);
        if (!url.endsWith("/token")) return response;
        const body = (await response.json()) as { id_token: string };
        const [header, payload, signature] = body.id_token.split(".");
        const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString()) as Record<
          string,
          unknown
        >;
        claims.groups = ["console-admins"];
        body.id_token = [header, Buffer.from(JSON.stringify(claims)).toString("base64url"), signature].join(
          ".",
        );
        tampered += 1;
        return Response.json(body, { status: response.status, headers: { "Cache-Control": "no-store" } });
      },
    });
    const { callbackUrl, pending } = await signIn("nobody", { settings: tampering });
    const error = await signInError(completeSignIn(tampering, callbackUrl, pending));
    expect(tampered).toBe(1);
    expect(error.code).toBe("invalid_response");
  });

  it("the provider's refusal (access_denied) is provider_error", async () => {
    const { pendingSignIn } = await beginSignIn(settings, null);
    const callback = new URL(REDIRECT_URI);
    callback.search = new URLSearchParams({
      error: "access_denied",
      error_description: "End-User aborted interaction",
      state: pendingSignIn.state,
      iss: provider.issuer,
    }).toString();
    const error = await signInError(completeSignIn(settings, callback, pendingSignIn));
    expect(error.code).toBe("provider_error");
    expect(error.message).toContain("access_denied");
  });

  it("a sign-in older than its time limit is refused: sign_in_expired", async () => {
    const { callbackUrl, pending } = await signIn("alice");
    const later = pending.created_at + (PENDING_SIGN_IN_TTL_SECONDS + 1) * 1000;
    expect((await signInError(completeSignIn(settings, callbackUrl, pending, later))).code).toBe(
      "sign_in_expired",
    );
  });
});

describe("returnTo: only a path on this console", () => {
  it.each([
    "https://evil.example/",
    "//evil.example/path",
    "/\\evil.example",
    "/%5C%5Cevil.example".replace("%5C%5C", "\\\\"),
    "javascript:alert(1)",
    "http:/evil.example",
    "/ /evil.example",
    "/api/auth/login",
    "",
  ])("%j becomes /", async (attempt) => {
    const { pendingSignIn } = await beginSignIn(settings, attempt);
    expect(pendingSignIn.return_to).toBe("/");
  });

  it("a tampered return_to in the pending sign-in is checked again on the way back", async () => {
    const { callbackUrl, pending } = await signIn("alice");
    const { returnTo } = await completeSignIn(settings, callbackUrl, {
      ...pending,
      return_to: "//evil.example",
    });
    expect(returnTo).toBe("/");
  });
});

describe("sign-out at the provider", () => {
  it("builds the provider's end-session address naming the client and user, and where to come back", async () => {
    const { callbackUrl, pending } = await signIn("alice");
    const { user } = await completeSignIn(settings, callbackUrl, pending);
    const url = new URL((await signOutUrl(settings, user.id)) ?? "");
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get("id_token_hint")).toBeNull();
    expect(url.searchParams.get("logout_hint")).toBe("alice");
    expect(url.searchParams.get("post_logout_redirect_uri")).toBe(POST_LOGOUT_URI);
    expect(url.searchParams.get("client_id")).toBe(provider.clientId);
    const page = await fetch(url, { redirect: "manual" });
    expect(page.status).toBe(200); // the provider's "sign out?" confirmation
  });
});

describe("a misconfigured client", () => {
  it("a wrong OIDC_CLIENT_SECRET is the provider's invalid_client, said as such", async () => {
    const wrongSecret = settingsFor(provider, { clientSecret: "not-the-secret" });
    const { callbackUrl, pending } = await signIn("alice", { settings: wrongSecret });
    const error = await signInError(completeSignIn(wrongSecret, callbackUrl, pending));
    expect(error.code).toBe("provider_error");
    expect(error.message).toContain("invalid_client");
    expect(error.message).not.toContain("not-the-secret");
  });

  it("the test provider requires PKCE: an authorization request without a code challenge is refused", async () => {
    const { redirectUrl } = await beginSignIn(settings, null);
    const withoutPkce = new URL(redirectUrl);
    withoutPkce.searchParams.delete("code_challenge");
    withoutPkce.searchParams.delete("code_challenge_method");
    const answer = await followUntil(new CookieJar(), withoutPkce.href, REDIRECT_URI);
    if (!("callbackUrl" in answer)) throw new Error("expected an error redirect to the callback");
    expect(new URL(answer.callbackUrl).searchParams.get("error")).toBe("invalid_request");
  });
});

describe("an unreachable provider", () => {
  it("is provider_unreachable, not a crash", async () => {
    const closed = await startTestProvider({ redirectUris: [REDIRECT_URI] });
    await closed.close();
    const error = await signInError(beginSignIn(settingsFor(closed), null));
    expect(error.code).toBe("provider_unreachable");
  });
});
