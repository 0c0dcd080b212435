/**
 * Groups grant roles only by an exact name (docs/operations/sign-in-and-roles.md): no piece of a longer name, no name with
 * spaces or non-breaking spaces around it, in either sign-in mode.
 */
import { describe, expect, it } from "vitest";
import { groupsFromClaim } from "@/lib/server/identity/oidc";
import { identityFromProxy, parseGroupsHeader } from "@/lib/server/identity/proxy";
import { rolesFromGroups } from "@/lib/server/identity/roles";
import type { ProxyAuthSettings } from "@/lib/server/identity/settings";

const SECRET = "proxy-shared-secret-0123456789abcdef";
const settings: ProxyAuthSettings = {
  mode: "proxy",
  proxy: { userHeader: "X-Forwarded-User", groupsHeader: "X-Forwarded-Groups", sharedSecret: SECRET },
  roleGroups: { admin: ["console-admins"], support: ["support-desk"] },
};

const rolesForHeader = (groups: string) =>
  identityFromProxy(
    new Request("http://console.test/api/me", {
      headers: { "X-Forwarded-User": "mallory", "X-Forwarded-Groups": groups, "X-Proxy-Secret": SECRET },
    }),
    settings,
    true,
  )?.roles;

describe("proxy groups header: names separated by a comma, each taken exactly", () => {
  it("a group named `Finance, console-admins` grants nothing", () => {
    expect(rolesForHeader("Finance, console-admins")).toEqual([]);
  });

  it("spaces or non-breaking spaces around a name are part of it (no match)", () => {
    // (HTTP itself drops spaces at the very start and end of a header value.)
    expect(rolesForHeader("support-desk, console-admins")).toEqual(["support"]);
    expect(rolesForHeader("console-admins\u00a0")).toEqual([]);
    expect(rolesForHeader("\u00a0support-desk")).toEqual([]);
  });

  it("the proxy's own list (comma, no spaces) still grants each exact name", () => {
    expect(rolesForHeader("Finance,console-admins,support-desk")).toEqual(["support", "admin"]);
    expect(parseGroupsHeader("a,b,,a")).toEqual(["a", "b"]);
    expect(parseGroupsHeader(" a , b")).toEqual([" a ", " b"]);
  });
});

describe("OIDC groups claim: each name exactly", () => {
  const roles = (claim: unknown) => rolesFromGroups(groupsFromClaim(claim), settings.roleGroups);

  it("a name with spaces or non-breaking spaces around it grants nothing", () => {
    expect(roles([" console-admins "])).toEqual([]);
    expect(roles(["console-admins\u00a0"])).toEqual([]);
    expect(roles(["console-admins"])).toEqual(["admin"]);
  });

  it("a string claim is one group name, never split on commas", () => {
    expect(roles("Finance, console-admins")).toEqual([]);
    expect(roles("Finance,console-admins")).toEqual([]);
    expect(roles("support-desk")).toEqual(["support"]);
  });
});
