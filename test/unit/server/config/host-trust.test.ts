/**
 * Host trust: the console answers only to PUBLIC_URL's hosts (and loopback with
 * AUTH_MODE=none), believes X-Forwarded-* only from TRUSTED_PROXIES, and knows the real peer address only
 * from its own server's header — never from a client's X-Forwarded-For.
 */
import { NextRequest } from "next/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as credentialsRoute from "@/app/api/session/credentials/route";
import * as sessionRoute from "@/app/api/session/route";
import { getConfig } from "@/lib/server/root";
import {
  clientAddress,
  PEER_ADDRESS_HEADER,
  peerAddress,
  setPeerHeaderStamped,
} from "@/lib/server/util/peer-address";
import { captureLogs } from "@/lib/server/util/logger";
import { proxy } from "@/proxy";
import { call, configure, readJson } from "../support";

beforeEach(() => configure());
afterEach(() => setPeerHeaderStamped(false));

describe("Host pinning (DNS rebinding)", () => {
  it("refuses a rebound name with 421 in the error shape, for reads and writes", async () => {
    // The page of an attacker's name rebound to 127.0.0.1 sends its own name as Host and Origin.
    const rebound = "http://attacker.example:3000";
    const read = await call(sessionRoute.GET, "GET", "/api/session", { base: rebound });
    expect(read.status).toBe(421);
    expect(await readJson(read)).toMatchObject({ error: { code: "misdirected_request" } });
    const write = await call(credentialsRoute.PUT, "PUT", "/api/session/credentials", {
      base: rebound,
      body: { profile: "demo" },
    });
    expect(write.status).toBe(421);
    expect(write.headers.getSetCookie()).toEqual([]);
  });

  it("answers loopback names with AUTH_MODE=none and the PUBLIC_URL host", async () => {
    configure({ PUBLIC_URL: "https://console.example.com" });
    for (const base of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"]) {
      expect((await call(sessionRoute.GET, "GET", "/api/session", { base })).status, base).toBe(200);
    }
    const site = await call(credentialsRoute.PUT, "PUT", "/api/session/credentials", {
      base: "https://console.example.com",
      body: { profile: "demo" },
    });
    expect(site.status).toBe(200);
    expect(site.headers.getSetCookie()[0]).toMatch(/^__Host-csc_session=.*Secure/);
    const other = await call(sessionRoute.GET, "GET", "/api/session", { base: "https://other.example.com" });
    expect(other.status).toBe(421);
  });

  it("ignores X-Forwarded-Host from a peer that is not a trusted proxy", async () => {
    configure({ PUBLIC_URL: "https://console.example.com", TRUSTED_PROXIES: "10.0.0.0/8" });
    setPeerHeaderStamped(true);
    const forwarded = { "x-forwarded-host": "console.example.com", "x-forwarded-proto": "https" };
    const untrusted = await call(sessionRoute.GET, "GET", "/api/session", {
      base: "http://attacker.example",
      headers: { ...forwarded, [PEER_ADDRESS_HEADER]: "203.0.113.9" },
    });
    expect(untrusted.status).toBe(421);
    const trusted = await call(sessionRoute.GET, "GET", "/api/session", {
      base: "http://console-1.internal:3000",
      headers: { ...forwarded, [PEER_ADDRESS_HEADER]: "10.0.0.2" },
    });
    expect(trusted.status).toBe(200);
  });
});

describe("peer and client address", () => {
  const request = (headers: Record<string, string>) =>
    new Request("http://localhost:3000/api/session", { headers });

  it("is unknown without the console server's stamp, whatever X-Forwarded-For says", () => {
    const spoofed = request({ "x-forwarded-for": "10.0.0.1", [PEER_ADDRESS_HEADER]: "10.0.0.1" });
    expect(peerAddress(spoofed)).toBeNull();
    expect(clientAddress(spoofed, getConfig().trustedProxies)).toBeNull();
  });

  it("does not believe a spoofed X-Forwarded-For from an untrusted peer", () => {
    setPeerHeaderStamped(true);
    const { trustedProxies } = configure({ TRUSTED_PROXIES: "10.0.0.0/8" });
    const spoofed = request({ "x-forwarded-for": "198.51.100.1", [PEER_ADDRESS_HEADER]: "::ffff:192.0.2.7" });
    expect(peerAddress(spoofed)).toBe("192.0.2.7");
    expect(clientAddress(spoofed, trustedProxies)).toBe("192.0.2.7");
  });

  it("takes the nearest untrusted hop of X-Forwarded-For behind trusted proxies", () => {
    setPeerHeaderStamped(true);
    const { trustedProxies } = configure({ TRUSTED_PROXIES: "10.0.0.0/8" });
    const viaTwoProxies = request({
      // The client may prepend anything; the proxies append what they saw.
      "x-forwarded-for": "1.2.3.4, 198.51.100.20, 10.0.0.5",
      [PEER_ADDRESS_HEADER]: "10.0.0.9",
    });
    expect(clientAddress(viaTwoProxies, trustedProxies)).toBe("198.51.100.20");
  });

  it("logs the client address of each API call, not a spoofed one", async () => {
    setPeerHeaderStamped(true);
    const logs = captureLogs();
    try {
      await call(sessionRoute.GET, "GET", "/api/session", {
        headers: { "x-forwarded-for": "198.51.100.1", [PEER_ADDRESS_HEADER]: "127.0.0.1" },
      });
      expect(logs.text()).toContain('"client":"127.0.0.1"');
      expect(logs.text()).not.toContain("198.51.100.1");
    } finally {
      logs.restore();
    }
  });
});

describe("proxy.ts", () => {
  const run = (url: string, headers: Record<string, string> = {}) =>
    proxy(new NextRequest(url, { headers: { host: new URL(url).host, ...headers } }));

  it("sets a nonce CSP, COOP and, over https only, HSTS", async () => {
    const plain = await run("http://localhost:3000/inquiry");
    const csp = plain.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
    for (const directive of [
      "object-src 'none'",
      "frame-ancestors 'none'",
      "connect-src 'self'",
      "base-uri 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(plain.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    // Next reads the nonce from the forwarded request headers for its own scripts.
    expect(plain.headers.get("x-middleware-request-x-nonce")).toBe(/'nonce-([^']+)'/.exec(csp)?.[1]);
    const second = (await run("http://localhost:3000/inquiry")).headers.get("content-security-policy");
    expect(second).not.toBe(csp);

    configure({ PUBLIC_URL: "https://console.example.com" });
    const secure = await run("https://console.example.com/");
    expect(secure.headers.get("strict-transport-security")).toMatch(/max-age=\d{8}/);
  });

  it("refuses other hosts (pages and /sandbox too) and malformed %-encoding in the error shape", async () => {
    for (const url of [
      "http://attacker.example:3000/",
      "http://attacker.example:3000/sandbox/reporting/v1/auth/token",
    ]) {
      const refused = await run(url);
      expect(refused.status, url).toBe(421);
      expect(await refused.json()).toMatchObject({ error: { code: "misdirected_request" } });
    }
    const malformed = await run("http://localhost:3000/api/%E0%A4%A");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { code: "bad_request" } });
  });
});
