/**
 * The Java and Go starter clients keep the contract every starter client shares (starter-clients/README.md,
 * docs/design.md §12), run as processes the way a user runs them, against the standalone sandbox whose every call is
 * recorded here: what they print, their exit codes, the token cache, and the duties as seen on the wire. A
 * language whose toolchain is not installed is skipped, never passed.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { freePort } from "@/test/support/console-server";
import { builtGoProgram } from "@/test/support/go-build";
import { compiledJava, SHORT_RUN_JVM_FLAGS } from "@/test/support/jvm";

const ROOT = path.resolve(__dirname, "../../..");
const SECRET = "contract-test-demo-secret";
const ACTIVE = "6006491000000001";
const INACTIVE = "6006491000000027";
const SLOW = "6006491000000043";
const RATE_LIMITED = "6006491000000068";
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Call {
  at: number;
  method: string;
  path: string;
  requestId: string | null;
  authorization: string | null;
  body: string;
}

const sandbox = createSandbox({ demoSecret: SECRET, slowResponseMs: 20_000 });
let calls: Call[] = [];
/** Every call of the file, never cleared. */
const everyCall: Call[] = [];
let server: SandboxServer;
const work = mkdtempSync(path.join(os.tmpdir(), "starter-jvm-go-"));

/** The command each language runs as, compiled once per run (test/support/jvm.ts, go-build.ts). */
function build(language: string): string[] | undefined {
  if (language === "java") {
    const classes = compiledJava(path.join(ROOT, "starter-clients/java/CardApiClient.java"));
    return classes === undefined
      ? undefined
      : ["java", ...SHORT_RUN_JVM_FLAGS, "-cp", classes, "CardApiClient"];
  }
  const binary = builtGoProgram(path.join(ROOT, "starter-clients/go"));
  return binary === undefined ? undefined : [binary];
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  json: Record<string, unknown>;
}

function runClient(command: string[], args: string[], env: Record<string, string>): Promise<Ran> {
  const [program, ...rest] = command;
  const child = spawn(program!, [...rest, ...args], {
    cwd: work,
    // Only what a user's shell would hand it: no variable of the test run leaks into the client.
    env: { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? work, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const json = code === 0 ? (JSON.parse(stdout) as Record<string, unknown>) : {};
      resolve({ code, stdout, stderr, json });
    });
  });
}

beforeAll(async () => {
  server = await startSandboxServer({
    port: 0,
    sandbox: {
      ...sandbox,
      async handle(request, caller) {
        const call = {
          at: Date.now(),
          method: request.method,
          path: new URL(request.url).pathname,
          requestId: request.headers.get("x-request-id"),
          authorization: request.headers.get("authorization"),
          body: await request.clone().text(),
        };
        calls.push(call);
        everyCall.push(call);
        return sandbox.handle(request, caller);
      },
    },
  });
});

afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

const paths = (from: Call[]) => from.map((call) => `${call.method} ${call.path}`);
const TOKEN = "POST /reporting/v1/auth/token";
const GIFT = "POST /transaction/v1/gift/balance-inquiry";
const BALANCE = "POST /transaction/v1/balance-inquiry";

describe.each(["java", "go"])("the %s starter client keeps the shared contract", (language) => {
  let command: string[] | undefined;
  let env: Record<string, string>;
  const cache = path.join(work, `${language}-token.json`);
  const run = (...args: string[]) => runClient(command!, args, env);
  const runWith = (extra: Record<string, string>, ...args: string[]) =>
    runClient(command!, args, { ...env, ...extra });

  beforeAll(() => {
    command = build(language);
    env = {
      CARD_API_AUTH_URL: `${server.url}/`,
      CARD_API_BASE_URL: server.url,
      CARD_API_CLIENT_ID: "demo-client",
      CARD_API_CLIENT_SECRET: SECRET,
      CARD_API_TOKEN_CACHE: cache,
    };
  }, 180_000);

  const present = () => command !== undefined;

  test("token: the metadata, never the token; the cache is 0600 and the next run reuses it", async (context) => {
    if (!present()) return context.skip();
    calls = [];
    const first = await run("token");
    const second = await run("token");
    expect(first.code).toBe(0);
    expect(Object.keys(first.json)).toEqual(["token_type", "scope", "expires_at", "expires_in"]);
    expect(first.json).toMatchObject({
      token_type: "Bearer",
      scope: expect.stringContaining("read:transactions"),
    });
    expect(first.json.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(first.json.expires_in).toBeGreaterThan(7100);
    expect(paths(calls)).toEqual([TOKEN]);
    expect(second.json.expires_at).toBe(first.json.expires_at);
    expect(statSync(cache).mode & 0o777).toBe(0o600);
    const cached = JSON.parse(readFileSync(cache, "utf8")) as Record<string, string>;
    expect(Object.keys(cached)).toEqual([
      "auth_url",
      "client_id",
      "access_token",
      "token_type",
      "scope",
      "expires_at",
    ]);
    expect(cached.auth_url).toBe(server.url);
    for (const ran of [first, second]) expect(ran.stdout + ran.stderr).not.toContain(cached.access_token);
  });

  test("gift: a fresh UUID v4 per run; a declined inquiry is a result, exit 0, sent once", async (context) => {
    if (!present()) return context.skip();
    calls = [];
    const one = await run("gift", ACTIVE);
    const two = await run("gift", ACTIVE, "--location", "store-9");
    const declined = await run("gift", INACTIVE);
    for (const ran of [one, two, declined]) expect(ran.code).toBe(0);
    expect(one.json).toMatchObject({ status: 201, body: { data: { response_status: "approved" } } });
    expect(Object.keys(one.json)).toEqual(["status", "request_id", "transaction_id", "body"]);
    expect(one.json.transaction_id).toBe(
      (one.json.body as { data: { transaction_id: string } }).data.transaction_id,
    );
    expect(declined.json).toMatchObject({ status: 201, body: { data: { response_status: "declined" } } });
    const ids = calls.map((call) => call.requestId);
    expect(ids).toEqual([one.json.request_id, two.json.request_id, declined.json.request_id]);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(3);
    expect(JSON.parse(calls[1]!.body)).toEqual({
      data: {
        entry_mode: "keyed",
        card_number: ACTIVE,
        pin_mode: "none",
        originator: { location_id: "store-9" },
      },
    });
    expect(JSON.parse(calls[0]!.body).data.originator).toEqual({ location_id: "store-001" });
  });

  test("a 401: one new token, then the same call once more with the same X-Request-Id", async (context) => {
    if (!present()) return context.skip();
    await run("token");
    sandbox.revokeTokens();
    calls = [];
    const ran = await run("gift", ACTIVE, "--request-id", `renew-${language}-${Date.now()}`);
    expect(ran.json).toMatchObject({ status: 201, request_id: expect.stringMatching(/^renew-/) });
    expect(paths(calls)).toEqual([GIFT, TOKEN, GIFT]);
    expect(calls[2]!.requestId).toBe(calls[0]!.requestId);
    expect(calls[2]!.authorization).not.toBe(calls[0]!.authorization);
    expect(calls[2]!.body).toBe(calls[0]!.body);
  });

  test("a 429: waits Retry-After (2 s), then once more; the second 429 is the answer", async (context) => {
    if (!present()) return context.skip();
    await run("token");
    calls = [];
    const ran = await run("balance", RATE_LIMITED);
    expect(ran.code).toBe(0);
    expect(ran.json).toMatchObject({
      status: 429,
      request_id: null,
      body: { errors: [{ code: "rate_limited" }] },
    });
    expect(paths(calls)).toEqual([BALANCE, BALANCE]);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(1900);
  });

  test("no answer in time: looked up at once; never recorded, it is resent only under its own Request Id (3 sends at most), then given up with exit 1", async (context) => {
    if (!present()) return context.skip();
    await run("token");
    calls = [];
    const id = `slow/${language}?${Date.now()}`;
    const ran = await runWith({ CARD_API_TIMEOUT_MS: "700" }, "gift", SLOW, "--request-id", id);
    // The slow card is recorded only when it answers, and an abandoned one frees its Request Id: each lookup finds
    // nothing, so the same request goes again under the same id, 3 sends at most; the outcome stays unknown,
    // and the command says so with exit 1 (a workload joined by && stops there).
    expect({ code: ran.code, stdout: ran.stdout }).toEqual({ code: 1, stdout: "" });
    expect(ran.stderr).toContain(`Request Id ${id}`);
    const lookup = `GET /transaction/v1/transactions/request-id/${encodeURIComponent(id)}`;
    expect(paths(calls)).toEqual([GIFT, lookup, GIFT, lookup, GIFT, lookup]);
    expect(
      calls.filter((call) => call.path.endsWith("balance-inquiry")).map((call) => call.requestId),
    ).toEqual([id, id, id]);
  });

  test("exit codes: 2 for usage, 1 for missing configuration or no answer; the secret only in token requests", async (context) => {
    if (!present()) return context.skip();
    const usage = await run("refund", ACTIVE);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^error: unknown command: refund\nusage: /);
    expect((await run("gift")).code).toBe(2);
    expect((await run("balance", ACTIVE, "--request-id", "x")).code).toBe(2);
    const missing = await runWith({ CARD_API_CLIENT_ID: "" }, "token");
    expect(missing).toMatchObject({ code: 1, stdout: "", stderr: "error: CARD_API_CLIENT_ID is not set\n" });
    const badTimeout = await runWith({ CARD_API_TIMEOUT_MS: "soon" }, "token");
    expect(badTimeout.code).toBe(1);
    writeFileSync(cache, "not json");
    // A port that was free a moment ago: on a shared machine even port 9 may have a listener.
    const closed = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await runWith({ CARD_API_AUTH_URL: closed }, "token");
    expect(unreachable).toMatchObject({ code: 1, stdout: "" });
    expect(unreachable.stderr).toMatch(new RegExp(`^error: no token after 3 requests: ${closed}: `));
    const outsideToken = everyCall.filter((call) => call.path !== "/reporting/v1/auth/token");
    expect(outsideToken.length).toBeGreaterThan(0);
    for (const call of outsideToken) expect(JSON.stringify(call)).not.toContain(SECRET);
  });
});
