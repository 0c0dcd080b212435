import { afterEach, describe, expect, it, vi } from "vitest";
import { createSandbox } from "@/lib/sandbox";

const tokenRequest = (url: string, secret = "demo-secret") =>
  new Request(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_id: "demo-client",
      client_secret: secret,
      grant_type: "client_credentials",
    }),
  });

describe("createSandbox options", () => {
  it("serves under basePath only, stripping it", async () => {
    const sandbox = createSandbox({ basePath: "/sandbox/" });
    expect((await sandbox.handle(tokenRequest("http://x/sandbox/reporting/v1/auth/token"))).status).toBe(200);
    expect((await sandbox.handle(tokenRequest("http://x/reporting/v1/auth/token"))).status).toBe(404);
    expect((await sandbox.handle(tokenRequest("http://x/sandboxes/reporting/v1/auth/token"))).status).toBe(
      404,
    );
    expect((await sandbox.handle(new Request("http://x/sandbox"))).status).toBe(404);
  });

  it("uses demoSecret instead of the default", async () => {
    const sandbox = createSandbox({ demoSecret: "s3cret-from-env" });
    expect((await sandbox.handle(tokenRequest("http://x/reporting/v1/auth/token"))).status).toBe(400);
    const ok = await sandbox.handle(tokenRequest("http://x/reporting/v1/auth/token", "s3cret-from-env"));
    expect(ok.status).toBe(200);
  });

  it("rejects tokens of another instance unless they share the signing key", async () => {
    const tokenFrom = async (sandbox: ReturnType<typeof createSandbox>) =>
      (
        (await (await sandbox.handle(tokenRequest("http://x/reporting/v1/auth/token"))).json()) as {
          data: { attributes: { access_token: string } };
        }
      ).data.attributes.access_token;
    const balance = (sandbox: ReturnType<typeof createSandbox>, token: string) =>
      sandbox.handle(
        new Request("http://x/transaction/v1/balance-inquiry", {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: JSON.stringify({
            data: {
              entry_mode: "keyed",
              card_number: "6006491000000001",
              pin_mode: "none",
              originator: { location_id: "l" },
            },
          }),
        }),
      );
    const [first, second] = [createSandbox(), createSandbox()];
    expect((await balance(second, await tokenFrom(first))).status).toBe(401);
    const [shared1, shared2] = [
      createSandbox({ signingKey: "shared" }),
      createSandbox({ signingKey: "shared" }),
    ];
    expect((await balance(shared2, await tokenFrom(shared1))).status).toBe(200);
  });

  it("reset() empties the state and zeroes the counters", async () => {
    const sandbox = createSandbox();
    await sandbox.handle(tokenRequest("http://x/reporting/v1/auth/token"));
    expect(sandbox.stats()).toEqual({ tokenRequests: 1, transactions: 0 });
    sandbox.reset();
    expect(sandbox.stats()).toEqual({ tokenRequests: 0, transactions: 0 });
  });

  it("answers OPTIONS with the allowed methods", async () => {
    const response = await createSandbox().handle(
      new Request("http://x/transaction/v1/gift/balance-inquiry", { method: "OPTIONS" }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("getEmbeddedSandbox", () => {
  afterEach(async () => {
    (await import("@/lib/server/root")).setEmbeddedSandboxForTests(undefined);
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("is one instance per process even when its module is loaded twice", async () => {
    const first = (await import("@/lib/server/root/embedded-sandbox")).getEmbeddedSandbox();
    vi.resetModules();
    const second = (await import("@/lib/server/root/embedded-sandbox")).getEmbeddedSandbox();
    expect(second).toBe(first);
  });

  it("is mounted at /sandbox and configured from the environment", async () => {
    vi.stubEnv("SANDBOX_DEMO_SECRET", "from-the-env");
    vi.stubEnv("SANDBOX_TEST_HOOKS", "on");
    const sandbox = (await import("@/lib/server/root/embedded-sandbox")).getEmbeddedSandbox();
    const ok = await sandbox.handle(
      tokenRequest("http://localhost/sandbox/reporting/v1/auth/token", "from-the-env"),
    );
    expect(ok.status).toBe(200);
    const stats = await sandbox.handle(new Request("http://localhost/sandbox/__sandbox/stats"));
    expect(await stats.json()).toEqual({ token_requests: 1, transactions: 0 });
  });

  it("has no test hooks unless SANDBOX_TEST_HOOKS=on", async () => {
    const sandbox = (await import("@/lib/server/root/embedded-sandbox")).getEmbeddedSandbox();
    expect((await sandbox.handle(new Request("http://localhost/sandbox/__sandbox/stats"))).status).toBe(404);
  });

  it("reads EMBEDDED_SANDBOX", async () => {
    const { isEmbeddedSandboxEnabled } = await import("@/lib/server/root/embedded-sandbox");
    expect(isEmbeddedSandboxEnabled({})).toBe(true);
    expect(isEmbeddedSandboxEnabled({ EMBEDDED_SANDBOX: "on" })).toBe(true);
    expect(isEmbeddedSandboxEnabled({ EMBEDDED_SANDBOX: "OFF" })).toBe(false);
  });
});

describe("maxTransactions", () => {
  it("forgets the oldest transactions beyond the limit, freeing their Request Ids", async () => {
    const sandbox = createSandbox({ maxTransactions: 2 });
    const token = (
      (await (await sandbox.handle(tokenRequest("http://x/reporting/v1/auth/token"))).json()) as {
        data: { attributes: { access_token: string } };
      }
    ).data.attributes.access_token;
    const gift = (requestId: string) =>
      sandbox.handle(
        new Request("http://x/transaction/v1/gift/balance-inquiry", {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Authorization: `Bearer ${token}`,
            "X-Request-Id": requestId,
          },
          body: JSON.stringify({
            data: {
              entry_mode: "keyed",
              card_number: "6006491000000001",
              pin_mode: "none",
              originator: { location_id: "l" },
            },
          }),
        }),
      );
    const lookup = (requestId: string) =>
      sandbox.handle(
        new Request(`http://x/transaction/v1/transactions/request-id/${requestId}`, {
          headers: { Authorization: `Bearer ${token}` },
        }),
      );
    for (const requestId of ["a", "b", "c"]) expect((await gift(requestId)).status).toBe(201);
    expect(sandbox.stats().transactions).toBe(2);
    expect((await lookup("a")).status).toBe(404);
    expect((await lookup("b")).status).toBe(200);
    expect((await lookup("c")).status).toBe(200);
    expect((await gift("a")).status).toBe(201);
    expect((await gift("c")).status).toBe(409);
  });
});
