// The client under every fault of ../testing/scenarios.json, run as a user runs it: `node --test`.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { retryAfterMs } from "./client.mjs";

const here = dirname(fileURLToPath(import.meta.url));
// In the repository the shared fixtures are beside this folder; in a downloaded zip, inside it.
const testing = [join(here, "testing"), join(here, "..", "testing")].find((dir) =>
  existsSync(join(dir, "scenarios.json")),
);
const { startFaultServer } = testing ? await import(join(testing, "fault-server.mjs")) : {};
const { timeout_ms: timeoutMs, scenarios } = testing
  ? JSON.parse(readFileSync(join(testing, "scenarios.json"), "utf8"))
  : { scenarios: [] };
const SECRET = `fault-secret-${randomUUID()}`;

let server;
let work;
before(async () => {
  if (!testing) return;
  server = await startFaultServer();
  work = mkdtempSync(join(tmpdir(), "card-api-node-"));
});
after(async () => {
  if (!testing) return;
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const control = async (path, body) =>
  (await fetch(server.url + path, body ? { method: "POST", body: JSON.stringify(body) } : {})).json();

function run(args, cache) {
  const env = {
    PATH: process.env.PATH,
    CARD_API_AUTH_URL: server.url,
    CARD_API_BASE_URL: server.url,
    CARD_API_CLIENT_ID: "fault-client",
    CARD_API_CLIENT_SECRET: SECRET,
    CARD_API_TIMEOUT_MS: String(timeoutMs),
    CARD_API_TOKEN_CACHE: cache,
  };
  return new Promise((resolve) => {
    execFile(process.execPath, [join(here, "client.mjs"), ...args], { env }, (error, stdout, stderr) =>
      resolve({ code: error ? error.code : 0, stdout, stderr }),
    );
  });
}

/** `expected` holds within `actual`; "*" is any value but null. */
function assertSubset(actual, expected, path = "stdout") {
  for (const [key, value] of Object.entries(expected)) {
    if (value === "*") assert.ok(actual?.[key] != null, `${path}.${key} is present`);
    else if (value !== null && typeof value === "object")
      assertSubset(actual?.[key], value, `${path}.${key}`);
    else assert.equal(actual?.[key], value, `${path}.${key}`);
  }
}

describe("the Node client under faults", () => {
  if (!testing) test("fault scenarios", { skip: "no testing folder with scenarios.json" }, () => {});
  for (const scenario of scenarios) {
    test(scenario.name, async () => {
      const id = `test-${randomUUID()}`;
      const fill = (value) => (typeof value === "string" ? value.replace("{id}", id) : value);
      const cache = join(work, `${randomUUID()}.json`);
      await control("/__faults/plan", { plan: scenario.plan, timeout_ms: timeoutMs });
      const results = [];
      for (const [index, args] of scenario.runs.entries()) {
        if (index > 0 && scenario.pause_ms) await new Promise((done) => setTimeout(done, scenario.pause_ms));
        results.push(await run(args.map(fill), cache));
      }
      const calls = await control("/__faults/calls");
      const story = JSON.stringify({
        results,
        calls: calls.map(({ kind, status, fault }) => [kind, status, fault]),
      });
      assert.deepEqual(
        results.map((result) => result.code),
        scenario.exit,
        story,
      );
      assert.deepEqual(
        calls.map((call) => call.kind),
        scenario.calls,
        story,
      );
      for (const call of calls) {
        assert.match(call.user_agent, /^card-api-client-node\/\d+\.\d+\.\d+/);
        if (call.kind !== "token")
          assert.ok(!JSON.stringify(call).includes(SECRET), "the secret outside a token request");
      }
      const last = results.at(-1);
      if (last.code !== 0) assert.match(last.stderr, /^error: \S/);
      if (last.code !== 0) assert.equal(last.stdout, "");
      if (scenario.same_request_id) {
        const ids = calls.filter((call) => call.kind === "gift").map((call) => call.request_id);
        const looked = calls
          .filter((call) => call.kind === "lookup")
          .map((call) => decodeURIComponent(call.path.split("/").pop()));
        assert.equal(new Set([...ids, ...looked]).size, 1, story);
      }
      for (const [i, j] of scenario.renewed ?? [])
        assert.notEqual(calls[i].authorization, calls[j].authorization);
      for (const [i, j, ms] of scenario.gaps ?? [])
        assert.ok(calls[j].at - calls[i].at >= ms, `gap ${i}→${j} ≥ ${ms} ms: ${story}`);
      for (const [i, j, ms] of scenario.within ?? [])
        assert.ok(
          calls[j].at - calls[i].at <= timeoutMs + ms,
          `${i}→${j} within ${timeoutMs + ms} ms: ${story}`,
        );
      if (scenario.stdout)
        assertSubset(
          JSON.parse(last.stdout),
          JSON.parse(JSON.stringify(scenario.stdout).replaceAll("{id}", id)),
        );
    });
  }
});

describe("Retry-After", () => {
  test("seconds, an HTTP-date (past its second), absent or unreadable (1 s)", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    assert.equal(retryAfterMs("2", now), 2100);
    assert.equal(retryAfterMs("Thu, 01 Jan 2026 00:00:03 GMT", now), 4000);
    assert.equal(retryAfterMs("Wed, 31 Dec 2025 23:00:00 GMT", now), 1000);
    assert.equal(retryAfterMs(null, now), 1000);
    assert.equal(retryAfterMs("soon", now), 1000);
  });
});
