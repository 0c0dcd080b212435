/** Configuration: defaults, environments, and a bad value refused with a message naming the variable. */
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, rolesForGroups } from "@/lib/server/config";
import { getConfig, resetConsoleRoot } from "@/lib/server/root";
import { installRootAtStartup } from "@/lib/server/root/process";
import { captureLogs } from "@/lib/server/util/logger";

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

  it("names the embedded sandbox by the first public origin, the address the console answers to", () => {
    const config = loadConfig({
      PUBLIC_URL: "http://127.0.0.1:3412, http://console.test:3412",
      PORT: "3412",
    });
    expect(config.environments[0]).toMatchObject({
      name: "embedded",
      authUrl: "http://127.0.0.1:3412/sandbox",
      baseUrl: "http://127.0.0.1:3412/sandbox",
    });
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
    // Production and the token endpoint over plain http only on this machine.
    [
      { CARD_API_AUTH_URL: "https://a.example", CARD_API_PRODUCTION_URL: "http://api.example" },
      "CARD_API_PRODUCTION_URL",
      /https/,
    ],
    [
      { CARD_API_AUTH_URL: "http://auth.example", CARD_API_SANDBOX_URL: "https://s.example" },
      "CARD_API_AUTH_URL",
      /https/,
    ],
    [{ SANDBOX_SLOW_MS: "0" }, "SANDBOX_SLOW_MS", /at least 1/],
    [{ SANDBOX_SLOW_MS: "soon" }, "SANDBOX_SLOW_MS", /whole number/],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL", /one of/],
    [{ LOG_FORMAT: "xml" }, "LOG_FORMAT", /one of json, pretty/],
    [{ PUBLIC_URL: "console.example.com" }, "PUBLIC_URL", /origins/],
    [{ PUBLIC_URL: "https://console.example.com/app" }, "PUBLIC_URL", /without a path/],
    [{ TRUSTED_PROXIES: "10.0.0.0/40" }, "TRUSTED_PROXIES", /prefix/],
    [{ TRUSTED_PROXIES: "proxy.local" }, "TRUSTED_PROXIES", /CIDR/],
    [{ ROLE_GROUPS: "wizard:magicians" }, "ROLE_GROUPS", /unknown role/],
    [{ ROLE_GROUPS: "admin" }, "ROLE_GROUPS", /role:group/],
    [{ AUTH_MODE: "ldap" }, "AUTH_MODE", /none, oidc or proxy/],
    [{ AUTH_MODE: "oidc" }, "OIDC_ISSUER", /AUTH_MODE=oidc/],
    [{ AUTH_MODE: "proxy" }, "PROXY_SHARED_SECRET", /AUTH_MODE=proxy/],
    [
      { AUTH_MODE: "oidc", OIDC_ISSUER: "https://login.example", OIDC_CLIENT_ID: "console" },
      "OIDC_CLIENT_SECRET",
      /confidential/,
    ],
    [
      {
        AUTH_MODE: "proxy",
        PROXY_SHARED_SECRET: "a-proxy-secret-of-16+",
        TRUSTED_PROXIES: "10.0.0.0/8",
        SANDBOX_TEST_HOOKS: "on",
      },
      "SANDBOX_TEST_HOOKS",
      /AUTH_MODE=none/,
    ],
    [{ RATE_LIMIT_PER_MINUTE: "0" }, "RATE_LIMIT_PER_MINUTE", /at least 1/],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL", /postgres/],
    [{ SUPPORT_BATCH_CONCURRENCY: "0" }, "SUPPORT_BATCH_CONCURRENCY", /at least 1/],
    // docs/design.md §6: server-held credentials on a reachable address need sign-in.
    [
      { CARD_API_CLIENT_ID: "id", CARD_API_CLIENT_SECRET: "secret", HOSTNAME: "0.0.0.0" },
      "AUTH_MODE",
      /set AUTH_MODE/,
    ],
  ];
  for (const [env, variable, message] of bad) {
    it(`refuses ${JSON.stringify(env)} naming ${variable}`, () => {
      const error = errorFor(env);
      expect(error.variable).toBe(variable);
      expect(error.message).toContain(variable);
      expect(error.message).toMatch(message);
    });
  }

  it("allows plain http for loopback upstreams only, and keeps the sandbox instance's address free", () => {
    const config = loadConfig({
      CARD_API_AUTH_URL: "http://127.0.0.1:4010",
      CARD_API_SANDBOX_URL: "http://sandbox.internal",
      CARD_API_PRODUCTION_URL: "http://localhost:4010",
    });
    expect(config.environments.map((environment) => environment.name)).toEqual([
      "embedded",
      "sandbox",
      "production",
    ]);
  });

  it("listens on loopback by default, pins PUBLIC_URL, and reads every docs/design.md §3 variable", () => {
    const defaults = loadConfig({ PORT: "4000" });
    expect(defaults).toMatchObject({
      authMode: "none",
      hostname: "127.0.0.1",
      publicOrigins: ["http://localhost:4000"],
      sessionIdleSeconds: 900,
      dataDir: ".data",
      supportBatch: { maxCards: 10_000, concurrency: 4 },
      logLevel: "info",
      proxyAuth: { userHeader: "X-Forwarded-User", groupsHeader: "X-Forwarded-Groups" },
      roleGroups: { admin: [], tester: [], engineer: [], support: [] },
      sandbox: { slowResponseMs: 30_000, testHooks: false, port: 4010 },
    });
    expect(defaults.trustedProxies.has("127.0.0.1")).toBe(false);

    const configured = loadConfig({
      PUBLIC_URL: "https://console.example.com/, http://localhost:3000",
      TRUSTED_PROXIES: "10.0.0.0/8, ::1",
      ROLE_GROUPS: "admin:console-admins,tester:certification,tester:console-admins,support:desk",
      HOSTNAME: "0.0.0.0",
      SANDBOX_SLOW_MS: "1500",
    });
    expect(configured.publicOrigins).toEqual(["https://console.example.com", "http://localhost:3000"]);
    expect(configured.hostname).toBe("0.0.0.0");
    expect(configured.trustedProxies.has("10.1.2.3")).toBe(true);
    expect(configured.trustedProxies.has("::ffff:10.1.2.3")).toBe(true);
    expect(configured.trustedProxies.has("::1")).toBe(true);
    expect(configured.trustedProxies.has("192.168.0.1")).toBe(false);
    expect(configured.roleGroups).toEqual({
      admin: ["console-admins"],
      tester: ["certification", "console-admins"],
      engineer: [],
      support: ["desk"],
    });
    expect(rolesForGroups(configured, ["console-admins"])).toEqual(["tester", "admin"]);
    expect(configured.sandbox.slowResponseMs).toBe(1500);
  });

  it("accepts server-held credentials on loopback with AUTH_MODE=none", () => {
    const config = loadConfig({ CARD_API_CLIENT_ID: "id", CARD_API_CLIENT_SECRET: "secret-value" });
    expect(config.serverCredentials?.clientId).toBe("id");
  });

  it("never repeats a secret in the message", () => {
    expect(errorFor({ SESSION_SECRET: "too-short-secret" }).message).not.toContain("too-short-secret");
  });

  it("takes alert secrets only as Standard Webhooks secrets (whsec_ + base64), never repeating one refused", () => {
    const current = `whsec_${Buffer.alloc(32, 1).toString("base64")}`;
    const previous = `whsec_${Buffer.alloc(24, 2).toString("base64")}`;
    expect(
      loadConfig({ ALERT_WEBHOOK_SECRET: current, ALERT_WEBHOOK_SECRET_PREVIOUS: previous }).alerts,
    ).toMatchObject({ webhookSecret: current, previousWebhookSecret: previous });
    const plain = errorFor({ ALERT_WEBHOOK_SECRET: "a-plain-secret-of-the-old-kind" });
    expect(plain.variable).toBe("ALERT_WEBHOOK_SECRET");
    expect(plain.message).toMatch(/whsec_/);
    expect(plain.message).not.toContain("a-plain-secret-of-the-old-kind");
    const short = errorFor({ ALERT_WEBHOOK_SECRET_PREVIOUS: `whsec_${Buffer.alloc(8).toString("base64")}` });
    expect(short.variable).toBe("ALERT_WEBHOOK_SECRET_PREVIOUS");
    expect(short.message).toMatch(/24 to 64 bytes/);
  });

  it.each([
    ["one console on its embedded database: info", {}, 30],
    ["instances sharing a PostgreSQL: a warning", { DATABASE_URL: "postgres://db.test/console" }, 40],
  ])(
    "says in the log when SESSION_SECRET is unset (%s), without logging the generated password",
    (_case, env: Record<string, string>, level) => {
      const previous = { ...process.env };
      resetConsoleRoot();
      delete process.env.SESSION_SECRET;
      delete process.env.DATABASE_URL;
      Object.assign(process.env, env);
      const logs = captureLogs();
      try {
        const config = getConfig();
        expect(config.sessionSecretGenerated).toBe(true);
        const line = logs.lines().find((text) => /SESSION_SECRET is not set/.test(text));
        expect(JSON.parse(line ?? "{}")).toMatchObject({ level, variable: "SESSION_SECRET" });
        expect(logs.text()).not.toContain(config.sessionPasswords[0]);
        // The same password for every later reader in the process (all of Next's bundles).
        expect(getConfig().sessionPasswords).toEqual(config.sessionPasswords);
      } finally {
        logs.restore();
        resetConsoleRoot();
        for (const key of Object.keys(process.env)) if (!(key in previous)) delete process.env[key];
        Object.assign(process.env, previous);
      }
    },
  );

  it("stops the start with the message when a variable is bad", () => {
    const previous = process.env.CARD_API_TIMEOUT_MS;
    process.env.CARD_API_TIMEOUT_MS = "soon";
    const errors: string[] = [];
    const originalError = console.error;
    console.error = (message: string) => void errors.push(message);
    try {
      expect(() =>
        installRootAtStartup((code) => {
          throw new Error(`exit ${code}`);
        }),
      ).toThrow("exit 1");
      expect(errors.join("\n")).toMatch(/CARD_API_TIMEOUT_MS must be a whole number/);
    } finally {
      console.error = originalError;
      if (previous === undefined) delete process.env.CARD_API_TIMEOUT_MS;
      else process.env.CARD_API_TIMEOUT_MS = previous;
    }
  });
});
