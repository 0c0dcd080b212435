import { describe, expect, it } from "vitest";
import { groupsFromClaim, type PendingSignIn } from "@/lib/server/identity/oidc";
import {
  pendingSignInCookieName,
  sealPendingSignIn,
  serializeClearedPendingSignInCookie,
  serializePendingSignInCookie,
  unsealPendingSignIn,
} from "@/lib/server/identity/pending-sign-in";
import { safeReturnTo } from "@/lib/server/identity/return-to";

const OLD = "an-old-session-password-of-32-chars-or-more";
const NEW = "the-new-session-password-of-32-chars-or-more";

const pending: PendingSignIn = {
  state: "state-0123456789abcdef",
  nonce: "nonce-0123456789abcdef",
  code_verifier: "v".repeat(43),
  return_to: "/support",
  created_at: 1_700_000_000_000,
};

describe("safeReturnTo", () => {
  it("keeps a path on this console with its query and fragment", () => {
    expect(safeReturnTo("/")).toBe("/");
    expect(safeReturnTo("/support")).toBe("/support");
    expect(safeReturnTo("/inquiry?environment=sandbox#result")).toBe("/inquiry?environment=sandbox#result");
    expect(safeReturnTo("/a/../token")).toBe("/token");
  });

  it.each([
    null,
    undefined,
    "",
    "support",
    "https://evil.example/",
    "HTTPS://evil.example",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\tevil",
    "/%0d%0aSet-Cookie:x".replace("%0d%0a", "\r\n"),
    "javascript:alert(1)",
    "data:text/html,hi",
    "/api/auth/login",
    "/api",
    "/" + "a".repeat(2048),
  ])("refuses %j (becomes /)", (value) => {
    expect(safeReturnTo(value)).toBe("/");
  });
});

describe("groupsFromClaim", () => {
  it("accepts a list or a comma-separated string; drops non-strings, blanks and duplicates", () => {
    expect(groupsFromClaim(["a", "b", "a", " c "])).toEqual(["a", "b", " c "]);
    expect(groupsFromClaim("a, b")).toEqual(["a, b"]);
    expect(groupsFromClaim([1, null, "x", ""])).toEqual(["x"]);
    expect(groupsFromClaim(undefined)).toEqual([]);
    expect(groupsFromClaim({ admin: true })).toEqual([]);
  });
});

describe("pending sign-in cookie", () => {
  it("round-trips sealed, and the seal hides the verifier and nonce", async () => {
    const sealed = await sealPendingSignIn(pending, [NEW, OLD]);
    expect(sealed).not.toContain(pending.code_verifier);
    expect(sealed).not.toContain(pending.nonce);
    expect(await unsealPendingSignIn(sealed, [NEW, OLD])).toEqual(pending);
  });

  it("opens with an older password still listed (rotation), not with an unknown one", async () => {
    const sealedWithOld = await sealPendingSignIn(pending, [OLD]);
    expect(await unsealPendingSignIn(sealedWithOld, [NEW, OLD])).toEqual(pending);
    expect(await unsealPendingSignIn(sealedWithOld, [NEW])).toBeNull();
  });

  it("garbage, a tampered seal and nothing are all null, never a throw", async () => {
    const sealed = await sealPendingSignIn(pending, [NEW]);
    const flipped = sealed.slice(0, 40) + (sealed[40] === "A" ? "B" : "A") + sealed.slice(41);
    expect(await unsealPendingSignIn(flipped, [NEW])).toBeNull();
    expect(await unsealPendingSignIn("garbage", [NEW])).toBeNull();
    expect(await unsealPendingSignIn("Fe26.2*1*x*y*z", [NEW])).toBeNull();
    expect(await unsealPendingSignIn(null, [NEW])).toBeNull();
    expect(await unsealPendingSignIn("", [NEW])).toBeNull();
  });

  it("is HttpOnly, SameSite=Lax (sent on the provider's redirect back), short-lived, __Host- and Secure over https", () => {
    const plain = serializePendingSignInCookie("sealed", false);
    expect(plain).toBe("csc_sign_in=sealed; Path=/; Max-Age=600; HttpOnly; SameSite=Lax");
    const secure = serializePendingSignInCookie("sealed", true);
    expect(secure).toBe("__Host-csc_sign_in=sealed; Path=/; Max-Age=600; HttpOnly; SameSite=Lax; Secure");
    expect(serializeClearedPendingSignInCookie(true)).toMatch(/^__Host-csc_sign_in=; Path=\/; Max-Age=0;/);
    expect(pendingSignInCookieName(false)).toBe("csc_sign_in");
  });
});
