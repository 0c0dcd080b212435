/**
 * Safety over real HTTP (scripts/serve.mjs on the production build): the console answers only to its own
 * names, refuses TRACE and malformed %-encoding in the error shape, sends a nonce CSP whose nonce every page
 * script carries, and believes X-Forwarded-For only from TRUSTED_PROXIES.
 */
import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedConsole, type ConsoleServer } from "../../support/console-server";

// The run's shared consoles: their logs hold other files' requests too, so a test looks for its own lines.
let server: ConsoleServer;
/** A console that believes the test process as its proxy. */
const behindProxy = () => sharedConsole("trusted-proxy");

beforeAll(async () => {
  server = await sharedConsole();
});

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with exactly these headers (fetch would not let a test set Host). */
function raw(target: ConsoleServer, method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<RawResponse>((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: "127.0.0.1",
        port: target.port,
        method,
        path,
        headers: { host: `localhost:${target.port}`, ...headers },
      },
      (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** Log lines reach stdout in batches: wait (bounded) until one matching `pattern` is there. */
async function logLine(target: ConsoleServer, pattern: RegExp): Promise<string | undefined> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const line = target
      .logs()
      .split("\n")
      .findLast((entry) => pattern.test(entry));
    if (line || Date.now() > deadline) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function errorCode(response: RawResponse): string | undefined {
  return (JSON.parse(response.body) as { error?: { code?: string } }).error?.code;
}

describe("host trust", () => {
  it("listens on loopback by default", () => {
    expect(server.logs()).toContain(`listening on http://127.0.0.1:${server.port}`);
  });

  it("answers 421 in the error shape to a rebound name, for pages, the API and the sandbox", async () => {
    for (const path of ["/", "/inquiry", "/api/session", "/sandbox/reporting/v1/auth/token"]) {
      const response = await raw(server, "GET", path, { host: `attacker.example:${server.port}` });
      expect(response.status, path).toBe(421);
      expect(errorCode(response), path).toBe("misdirected_request");
    }
    const forwarded = await raw(server, "GET", "/api/session", {
      host: `attacker.example:${server.port}`,
      "x-forwarded-host": `localhost:${server.port}`,
    });
    expect(forwarded.status).toBe(421);
    expect((await raw(server, "GET", "/api/session")).status).toBe(200);
  });

  it("logs the socket's address, not a spoofed X-Forwarded-For, unless the peer is a trusted proxy", async () => {
    // A path of this test's own (every API path's call is logged alike): other files' lines share the log.
    const own = `/api/spoofed-${randomUUID()}`;
    await raw(server, "GET", own, { "x-forwarded-for": "198.51.100.77" });
    const line = await logLine(server, new RegExp(`"path":"${own}".*"client"`));
    expect(line).toContain('"client":"127.0.0.1"');
    expect(server.logs()).not.toContain("198.51.100.77");

    const proxied = await behindProxy();
    const forwarded = `/api/forwarded-${randomUUID()}`;
    await raw(proxied, "GET", forwarded, { "x-forwarded-for": "198.51.100.78" });
    expect(await logLine(proxied, new RegExp(`"path":"${forwarded}"`))).toContain('"client":"198.51.100.78"');
  });
});

describe("what Next would answer with a plain 500", () => {
  it("answers TRACE with 405 and malformed %-encoding with 400, in the error shape", async () => {
    const trace = await raw(server, "TRACE", "/api/session");
    expect(trace.status).toBe(405);
    expect(errorCode(trace)).toBe("method_not_allowed");
    for (const path of ["/api/%E0%A4%A", "/api/transactions/request-id/%ZZ", "/%E0%A4%A"]) {
      const malformed = await raw(server, "GET", path);
      expect(malformed.status, path).toBe(400);
      expect(errorCode(malformed), path).toBe("bad_request");
    }
  });

  it("answers an unknown method on a dot-segment API path, and a request line over 16 KB, in the error shape", async () => {
    for (const path of ["/./api/me", "/x/../api/me", "/%2e/api/me"]) {
      const propfind = await raw(server, "PROPFIND", path);
      expect(propfind.status, path).toBe(405);
      expect(errorCode(propfind), path).toBe("method_not_allowed");
      expect(propfind.headers.allow, path).toContain("GET");
    }
    const long = await raw(server, "GET", `/api/health?${"a".repeat(17 * 1024)}`);
    expect(long.status).toBe(431);
    expect(long.headers["content-type"]).toBe("application/json");
    expect(errorCode(long)).toBe("bad_request");
    expect((await raw(server, "GET", "/api/health")).status).toBe(200);
  });
});

describe("security headers", () => {
  it("sends a fresh nonce CSP that every script of the page carries, and COOP", async () => {
    const page = await raw(server, "GET", "/inquiry");
    expect(page.status).toBe(200);
    const csp = String(page.headers["content-security-policy"]);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("'strict-dynamic'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(page.headers["cross-origin-opener-policy"]).toBe("same-origin");
    expect(page.headers["strict-transport-security"]).toBeUndefined();
    const scripts = page.body.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(1);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
    const again = await raw(server, "GET", "/inquiry");
    expect(again.headers["content-security-policy"]).not.toBe(csp);
  });

  it("sends HSTS when served over https through a trusted proxy", async () => {
    const response = await raw(await behindProxy(), "GET", "/", { "x-forwarded-proto": "https" });
    expect(response.headers["strict-transport-security"]).toMatch(/max-age=/);
    const untrusted = await raw(server, "GET", "/", { "x-forwarded-proto": "https" });
    expect(untrusted.headers["strict-transport-security"]).toBeUndefined();
  });
});
