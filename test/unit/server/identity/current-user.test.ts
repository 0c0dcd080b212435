import { describe, expect, it } from "vitest";
import { LOCAL_USER, currentUser } from "@/lib/server/identity";
import { ROLES } from "@/lib/server/identity/roles";

const request = new Request("http://console.test/api/me", {
  headers: {
    "X-Forwarded-User": "alice",
    "X-Forwarded-Groups": "console-admins",
    "X-Proxy-Secret": "s".repeat(32),
  },
});
const roleGroups = { admin: ["console-admins"], support: ["support-desk"] };

describe("currentUser", () => {
  it("AUTH_MODE=none: the local user with every role, whatever the headers say", () => {
    const user = currentUser({ mode: "none" }, { request, peerIsTrusted: false, sessionUser: null });
    expect(user).toEqual({ id: "local", name: "Local user", groups: [], roles: [...ROLES] });
    expect(LOCAL_USER.roles).toEqual([...ROLES]);
  });

  it("AUTH_MODE=oidc: the session's user, roles recomputed from the stored groups under today's ROLE_GROUPS", () => {
    const settings = {
      mode: "oidc" as const,
      oidc: {
        issuer: "https://idp.test",
        clientId: "c",
        clientSecret: "s",
        redirectUri: "https://c.test/cb",
        groupsClaim: "groups",
      },
      roleGroups,
    };
    expect(currentUser(settings, { request, peerIsTrusted: true, sessionUser: null })).toBeNull();
    const stored = { id: "sam", name: "Sam", groups: ["support-desk"] };
    expect(currentUser(settings, { request, peerIsTrusted: true, sessionUser: stored })?.roles).toEqual([
      "support",
    ]);
    const remapped = { ...settings, roleGroups: { engineer: ["support-desk"] } };
    expect(currentUser(remapped, { request, peerIsTrusted: true, sessionUser: stored })?.roles).toEqual([
      "engineer",
    ]);
  });

  it("AUTH_MODE=proxy: headers only from a trusted peer with the secret", () => {
    const settings = {
      mode: "proxy" as const,
      proxy: {
        userHeader: "X-Forwarded-User",
        groupsHeader: "X-Forwarded-Groups",
        sharedSecret: "s".repeat(32),
      },
      roleGroups,
    };
    expect(currentUser(settings, { request, peerIsTrusted: true, sessionUser: null })?.roles).toEqual([
      "admin",
    ]);
    expect(currentUser(settings, { request, peerIsTrusted: false, sessionUser: null })).toBeNull();
  });
});
