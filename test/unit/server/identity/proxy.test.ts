import { describe, expect, it } from "vitest";
import { identityFromProxy, parseGroupsHeader } from "@/lib/server/identity/proxy";
import type { ProxyAuthSettings } from "@/lib/server/identity/settings";

const SECRET = "proxy-shared-secret-0123456789abcdef";
const settings: ProxyAuthSettings = {
  mode: "proxy",
  proxy: { userHeader: "X-Forwarded-User", groupsHeader: "X-Forwarded-Groups", sharedSecret: SECRET },
  roleGroups: { admin: ["console-admins"], support: ["support-desk"], engineer: ["developers"] },
};

function request(headers: Record<string, string>): Request {
  return new Request("http://console.test/api/me", { headers });
}

const proxied = (extra: Record<string, string> = {}) =>
  request({
    "X-Forwarded-User": "sam@example.test",
    "X-Forwarded-Groups": "support-desk,developers",
    "X-Proxy-Secret": SECRET,
    ...extra,
  });

describe("identityFromProxy", () => {
  it("believes the headers from a trusted proxy that knows the shared secret", () => {
    expect(identityFromProxy(proxied(), settings, true)).toEqual({
      id: "sam@example.test",
      name: "sam@example.test",
      groups: ["support-desk", "developers"],
      roles: ["support", "engineer"],
    });
  });

  it("a spoofed header from an untrusted peer is no identity, even with the right secret", () => {
    expect(identityFromProxy(proxied(), settings, false)).toBeNull();
    expect(
      identityFromProxy(
        request({ "X-Forwarded-User": "alice", "X-Forwarded-Groups": "console-admins" }),
        settings,
        false,
      ),
    ).toBeNull();
  });

  it("a trusted peer without the secret, or with a wrong one, is no identity", () => {
    const { "x-proxy-secret": _omitted, ...withoutSecret } = Object.fromEntries(proxied().headers);
    expect(identityFromProxy(request(withoutSecret), settings, true)).toBeNull();
    expect(identityFromProxy(proxied({ "X-Proxy-Secret": "wrong" }), settings, true)).toBeNull();
    expect(identityFromProxy(proxied({ "X-Proxy-Secret": SECRET + "x" }), settings, true)).toBeNull();
    expect(identityFromProxy(proxied({ "X-Proxy-Secret": "" }), settings, true)).toBeNull();
  });

  it("no shared secret configured: nothing is ever believed", () => {
    const unset: ProxyAuthSettings = { ...settings, proxy: { ...settings.proxy, sharedSecret: undefined } };
    expect(identityFromProxy(proxied(), unset, true)).toBeNull();
    expect(identityFromProxy(proxied({ "X-Proxy-Secret": "" }), unset, true)).toBeNull();
  });

  it("no or empty user header is not signed in", () => {
    expect(identityFromProxy(proxied({ "X-Forwarded-User": "  " }), settings, true)).toBeNull();
    const { "x-forwarded-user": _user, ...rest } = Object.fromEntries(proxied().headers);
    expect(identityFromProxy(request(rest), settings, true)).toBeNull();
    expect(identityFromProxy(proxied({ "X-Forwarded-User": "a".repeat(257) }), settings, true)).toBeNull();
  });

  it("a signed-in user without groups, or in unmapped groups, has no role", () => {
    expect(identityFromProxy(proxied({ "X-Forwarded-Groups": "" }), settings, true)).toMatchObject({
      groups: [],
      roles: [],
    });
    expect(identityFromProxy(proxied({ "X-Forwarded-Groups": "marketing" }), settings, true)?.roles).toEqual(
      [],
    );
  });

  it("reads the configured header names", () => {
    const custom: ProxyAuthSettings = {
      ...settings,
      proxy: {
        userHeader: "X-Auth-Request-Email",
        groupsHeader: "X-Auth-Request-Groups",
        sharedSecret: SECRET,
      },
    };
    const identity = identityFromProxy(
      request({
        "X-Auth-Request-Email": "alice@example.test",
        "X-Auth-Request-Groups": "console-admins",
        "X-Proxy-Secret": SECRET,
      }),
      custom,
      true,
    );
    expect(identity).toMatchObject({ id: "alice@example.test", roles: ["admin"] });
    // The default names mean nothing under a custom configuration.
    expect(identityFromProxy(proxied(), custom, true)).toBeNull();
  });
});

describe("parseGroupsHeader", () => {
  it("splits on commas, trims, drops empties and duplicates", () => {
    expect(parseGroupsHeader("a,b,,c,a")).toEqual(["a", "b", "c"]);
    expect(parseGroupsHeader("a, b")).toEqual(["a", " b"]);
    expect(parseGroupsHeader(null)).toEqual([]);
    expect(parseGroupsHeader("x".repeat(257))).toEqual([]);
  });
});
