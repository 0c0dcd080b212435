/** Configuration: defaults, environments, and a bad value refused with a message naming the variable. */
import { describe, expect, it } from "vitest";
import { ConfigError, getConfig, loadConfig, validateConfigAtStartup } from "@/lib/config";
import { captureLogs } from "@/lib/logger";

const SECRET = "a-session-secret-that-is-long-enough-123";

function errorFor(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("configuration", () => {
  it("has the documented defaults: embedded sandbox only, random session secret flagged", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      sessionSecretGenerated: true,
      sessionTtlSeconds: 28_800,
      timeoutMs: 10_000,
      embeddedSandbox: true,
      sandboxDemoSecret: "demo-secret",
      port: 3000,
      tokenRenewSkewSeconds: 120,
      serverCredentials: null,
    });
    expect(config.sessionPasswords).toHaveLength(1);
    expect(config.sessionPasswords[0]?.length).toBeGreaterThanOrEqual(32);
    expect(config.environments).toEqual([
      {
        name: "embedded",
        authUrl: "http://localhost:3000/sandbox",
        baseUrl: "http://localhost:3000/sandbox",
        transport: "embedded",
      },
    ]);
  });

  it("adds sandbox and production when their addresses are configured, without trailing slashes", () => {
    const config = loadConfig({
      SESSION_SECRET: SECRET,
      CARD_API_AUTH_URL: "https://auth.example/",
      CARD_API_SANDBOX_URL: "https://sandbox.example/base/",
      CARD_API_PRODUCTION_URL: "https://api.example",
      EMBEDDED_SANDBOX: "off",
      PORT: "4000",
    });
    expect(config.environments.map(({ name, authUrl, baseUrl }) => [name, authUrl, baseUrl])).toEqual([
      ["sandbox", "https://auth.example", "https://sandbox.example/base"],
      ["production", "https://auth.example", "https://api.example"],
    ]);
  });

  it("splits SESSION_SECRET for rotation, newest first", () => {
    const config = loadConfig({ SESSION_SECRET: `${SECRET}-new, ${SECRET}-old` });
    expect(config.sessionPasswords).toEqual([`${SECRET}-new`, `${SECRET}-old`]);
    expect(config.sessionSecretGenerated).toBe(false);
  });

  it("treats empty values as unset", () => {
    expect(
      loadConfig({ CARD_API_TIMEOUT_MS: "", EMBEDDED_SANDBOX: " ", CARD_API_AUTH_URL: "" }).timeoutMs,
    ).toBe(10_000);
  });

  const bad: [Record<string, string>, string, RegExp][] = [
    [{ CARD_API_TIMEOUT_MS: "abc" }, "CARD_API_TIMEOUT_MS", /whole number/],
    [{ CARD_API_TIMEOUT_MS: "0" }, "CARD_API_TIMEOUT_MS", /at least/],
    [{ SESSION_TTL_SECONDS: "-5" }, "SESSION_TTL_SECONDS", /whole number/],
    [{ SESSION_SECRET: "short" }, "SESSION_SECRET", /at least 32/],
    [{ SESSION_SECRET: `${SECRET},short` }, "SESSION_SECRET", /at least 32/],
    [{ EMBEDDED_SANDBOX: "maybe" }, "EMBEDDED_SANDBOX", /on or off/],
    [{ PORT: "70000" }, "PORT", /at most/],
    [{ CARD_API_AUTH_URL: "ftp://auth.example" }, "CARD_API_AUTH_URL", /http/],
    [{ CARD_API_AUTH_URL: "not a url" }, "CARD_API_AUTH_URL", /absolute/],
    [{ CARD_API_AUTH_URL: "https://user:pw@auth.example" }, "CARD_API_AUTH_URL", /user name/],
    [
      { CARD_API_SANDBOX_URL: "https://s.example?x=1", CARD_API_AUTH_URL: "https://a.example" },
      "CARD_API_SANDBOX_URL",
      /query/,
    ],
    [{ CARD_API_SANDBOX_URL: "https://s.example" }, "CARD_API_AUTH_URL", /must be set/],
    [{ CARD_API_CLIENT_ID: "id" }, "CARD_API_CLIENT_SECRET", /together/],
    [{ EMBEDDED_SANDBOX: "off" }, "EMBEDDED_SANDBOX", /no other environment/],
    [{ TOKEN_RENEW_SKEW_SECONDS: "1.5" }, "TOKEN_RENEW_SKEW_SECONDS", /whole number/],
  ];
  for (const [env, variable, message] of bad) {
    it(`refuses ${JSON.stringify(env)} naming ${variable}`, () => {
      const error = errorFor(env);
      expect(error.variable).toBe(variable);
      expect(error.message).toContain(variable);
      expect(error.message).toMatch(message);
    });
  }

  it("never repeats a secret in the message", () => {
    expect(errorFor({ SESSION_SECRET: "too-short-secret" }).message).not.toContain("too-short-secret");
  });

  it("warns in the log when SESSION_SECRET is unset, without logging the generated password", () => {
    const holder = globalThis as Record<symbol, unknown>;
    const key = Symbol.for("card-services-console.config");
    const saved = holder[key];
    const previous = process.env.SESSION_SECRET;
    delete holder[key];
    delete process.env.SESSION_SECRET;
    const logs = captureLogs();
    try {
      const config = getConfig();
      expect(config.sessionSecretGenerated).toBe(true);
      expect(logs.text()).toMatch(/SESSION_SECRET is not set/);
      expect(logs.text()).not.toContain(config.sessionPasswords[0]);
      // The same password for every later reader in the process (all of Next's bundles).
      expect(getConfig().sessionPasswords).toEqual(config.sessionPasswords);
    } finally {
      logs.restore();
      holder[key] = saved;
      if (previous !== undefined) process.env.SESSION_SECRET = previous;
    }
  });

  it("stops the start with the message when a variable is bad", () => {
    const previous = process.env.CARD_API_TIMEOUT_MS;
    const holder = globalThis as Record<symbol, unknown>;
    const key = Symbol.for("card-services-console.config");
    const saved = holder[key];
    delete holder[key];
    process.env.CARD_API_TIMEOUT_MS = "soon";
    const errors: string[] = [];
    const originalError = console.error;
    console.error = (message: string) => void errors.push(message);
    try {
      expect(() =>
        validateConfigAtStartup((code) => {
          throw new Error(`exit ${code}`);
        }),
      ).toThrow("exit 1");
      expect(errors.join("\n")).toMatch(/CARD_API_TIMEOUT_MS must be a whole number/);
    } finally {
      console.error = originalError;
      if (previous === undefined) delete process.env.CARD_API_TIMEOUT_MS;
      else process.env.CARD_API_TIMEOUT_MS = previous;
      holder[key] = saved;
    }
  });
});
