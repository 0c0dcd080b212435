/**
 * What an outside caller could abuse, on the production build (bounded, 127.0.0.1):
 * - a flood of distinct unknown /api paths: the metrics keep one label for all of them, so the exposition and
 *   the process stay the size they were; an address past 60 refusals a minute is answered 429 with Retry-After;
 *   /api/health stays fast meanwhile;
 * - text PostgreSQL cannot store (NUL) in a path or query: 400 in the error shape, never a 500 or a failed
 *   audit statement.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsole, type ConsoleServer } from "@/test/support/console-server";
import { parseExposition, sampleOf } from "@/test/support/prometheus";

const METRICS_TOKEN = "metrics-token-for-the-flood-test-0123";
const PATHS = 3_000;
const CONCURRENCY = 8;
/** Anonymous refusals an address may have in a minute (lib/server/audit/anonymous-refusals.ts). */
const LIMIT = 60;

let server: ConsoleServer;
beforeAll(async () => {
  // The test's own requests stand for many callers: X-Forwarded-For is believed from loopback.
  server = await startConsole({ METRICS_TOKEN, TRUSTED_PROXIES: "127.0.0.1/32,::1/128" });
});
afterAll(() => server?.stop());

async function scrape(): Promise<string> {
  const response = await fetch(`${server.url}/api/metrics`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.status).toBe(200);
  return response.text();
}

/**
 * The console's own series, which a request's route, method or status could add to. The runtime's
 * (console_process_*) come from a fixed set of labels and appear as the process first does each thing: a garbage
 * collection of a kind not seen before adds its nine histogram lines, whatever the requests were.
 */
const seriesOf = (text: string) =>
  text.split("\n").filter((line) => line && !line.startsWith("#") && !line.startsWith("console_process_"))
    .length;
const rssOf = (text: string) =>
  sampleOf(parseExposition(text), "console_process_process_resident_memory_bytes");

/** Sends `count` requests, `CONCURRENCY` at a time; `request(index)` makes the one to send. */
async function flood(count: number, request: (index: number) => Promise<number>): Promise<number[]> {
  const statuses: number[] = new Array<number>(count);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < count; index = next++) statuses[index] = await request(index);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return statuses;
}

async function unknownPath(index: number, address: string): Promise<number> {
  const response = await fetch(`${server.url}/api/probe-${index}/x${index.toString(36)}`, {
    headers: { "X-Forwarded-For": address },
  });
  await response.arrayBuffer();
  return response.status;
}

/** The largest resident size the metrics report, scraped one after another until `done` resolves, and after. */
async function peakRss(done: Promise<unknown>): Promise<number> {
  let finished = false;
  void done.finally(() => (finished = true));
  let peak = 0;
  do peak = Math.max(peak, rssOf(await scrape()));
  while (!finished);
  return Math.max(peak, rssOf(await scrape()));
}

/** /api/health latencies, one call after another until `done` resolves. */
async function healthLatencies(done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true));
  const latencies: number[] = [];
  while (!finished) {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/health`);
    await response.arrayBuffer();
    expect(response.status).toBe(200);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

describe("distinct unknown /api paths", () => {
  it("add no series: one route label for all, bounded exposition and memory, health fast", async () => {
    // Warm up with the same flood, health calls beside it: the heap grows to its working size under load at
    // first (then stays there, flood after flood), and every route involved has loaded, so that growth below is
    // what the flood keeps. The working size is the warm-up's peak: a collection right after it can hand memory
    // back for a moment, and growth measured from that dip would be the heap refilling, not a leak.
    const warmUp = flood(PATHS, (index) => unknownPath(-index, `198.51.100.${100 + (index % 60)}`));
    const [, workingSize] = await Promise.all([healthLatencies(warmUp), peakRss(warmUp)]);
    await warmUp;
    const before = await scrape();
    // 50 paths from each of 60 addresses: every one reaches the catch-all's 404 (below the per-address limit).
    const sent = flood(PATHS, (index) => unknownPath(index, `198.51.100.${index % 60}`));
    const health = await healthLatencies(sent);
    const statuses = await sent;
    const after = await scrape();

    const grown = rssOf(after) - Math.max(workingSize, rssOf(before));
    const sorted = [...health].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    console.log(
      `${PATHS} unknown paths: RSS ${(rssOf(before) / 2 ** 20).toFixed(0)} (warm-up peak ${(workingSize / 2 ** 20).toFixed(0)}) → ${(rssOf(after) / 2 ** 20).toFixed(0)} MiB, ` +
        `metrics ${before.length} → ${after.length} bytes, ${seriesOf(before)} → ${seriesOf(after)} series; ` +
        `/api/health ${health.length} calls, median ${median.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
    );
    expect(statuses.filter((status) => status === 404)).toHaveLength(PATHS);
    expect(seriesOf(after) - seriesOf(before)).toBeLessThanOrEqual(5);
    expect(after.length - before.length).toBeLessThan(2_000);
    const unknown = { route: "unknown", method: "GET", status: "404" };
    const moved = (text: string) => sampleOf(parseExposition(text), "console_http_requests_total", unknown);
    expect(moved(after) - moved(before)).toBe(PATHS);
    expect(after).not.toContain("probe-");
    expect(grown).toBeLessThan(96 * 2 ** 20);
    expect(median).toBeLessThan(250);
    // 6,000 requests: beside two other files on two busy cores they take more than the default minute.
  }, 240_000);

  it("throttle one address past 60 a minute: 429 with Retry-After in the error shape", async () => {
    // The counts are per clock minute of the server (this machine's clock): an attempt that straddled a minute's
    // end proves nothing and runs again from a new address, at once (61 requests take far less than a minute).
    for (let attempt = 0; ; attempt += 1) {
      const address = `203.0.113.${9 + attempt}`;
      const minute = Math.floor(Date.now() / 60_000);
      const statuses = await flood(LIMIT + 1, (index) =>
        unknownPath(10_000 + 100 * attempt + index, address),
      );
      const response = await fetch(`${server.url}/api/one-more`, { headers: { "X-Forwarded-For": address } });
      if (Math.floor(Date.now() / 60_000) !== minute && attempt < 2) continue;
      expect(statuses.filter((status) => status === 404)).toHaveLength(LIMIT);
      expect(statuses.filter((status) => status === 429)).toHaveLength(1);
      expect(response.status).toBe(429);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await response.json()).toMatchObject({ error: { code: "rate_limited" } });
      break;
    }
    // Another address is not throttled.
    expect((await fetch(`${server.url}/api/one-more`)).status).toBe(404);
  });
});

describe("text the database cannot store, in a path or a query", () => {
  const sent = async (method: string, path: string) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: method === "GET" ? {} : { Origin: server.url },
    });
    return { status: response.status, body: (await response.json()) as { error: { code: string } } };
  };

  it.each([
    ["GET", "/api/audit?user=%00", "validation_failed"],
    ["GET", "/api/runs/%00", "validation_failed"],
    ["GET", "/api/runs?request_id=%00", "validation_failed"],
    ["DELETE", "/api/admin/sessions?user=%00", "validation_failed"],
    ["GET", "/api/audit?from=-271821-04-20T00:00:00Z", "validation_failed"],
  ])("%s %s: 400 %s", async (method, path, code) => {
    const answer = await sent(method, path);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code, message: expect.any(String) } });
  });

  it("fails nobody else's call: the audit log still takes rows", async () => {
    const answers = await Promise.all([
      sent("GET", "/api/audit?user=%00"),
      ...Array.from({ length: 10 }, () => sent("GET", "/api/audit?limit=1")),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([400, ...Array(10).fill(200)]);
  });
});

describe("methods Next does not know (PROPFIND, MKCOL)", () => {
  const sent = async (method: string, path: string) => {
    const response = await fetch(`${server.url}${path}`, { method });
    return { status: response.status, allow: response.headers.get("allow"), body: await response.text() };
  };

  it.each(["PROPFIND", "MKCOL"])(
    "%s: 405 with Allow in the console's error shape under /api",
    async (method) => {
      for (const path of ["/api/health", "/api/runs/some-id", "/api/no-such-route"]) {
        const answer = await sent(method, path);
        expect(answer.status, path).toBe(405);
        expect(answer.allow, path).toContain("GET");
        expect(JSON.parse(answer.body), path).toMatchObject({ error: { code: "method_not_allowed" } });
      }
    },
  );

  it.each(["PROPFIND", "MKCOL"])("%s: the sandbox's own 405 with Allow under /sandbox", async (method) => {
    const answer = await sent(method, "/sandbox/reporting/v1/auth/token");
    expect(answer.status).toBe(405);
    expect(answer.allow).toBe("POST");
    expect(JSON.parse(answer.body)).toMatchObject({
      errors: [{ status: "405", code: "method_not_allowed" }],
    });
    const unknown = await sent(method, "/sandbox/no/such/path");
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ errors: [{ status: "404" }] });
  });
});

describe("slow test card calls to the embedded sandbox", () => {
  it("holds 8 per caller; the ninth is answered 429 at once with Retry-After", async () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
      fetch(`${server.url}/sandbox${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify(body),
        signal,
      });
    const token = (await (
      await post("/reporting/v1/auth/token", {
        client_id: "demo-client",
        client_secret: "demo-secret",
        grant_type: "client_credentials",
      })
    ).json()) as { data: { attributes: { access_token: string } } };
    const abort = new AbortController();
    const card = {
      data: {
        entry_mode: "keyed",
        card_number: "6006491000000043",
        pin_mode: "none",
        originator: { location_id: "s" },
      },
    };
    const auth = { Authorization: `Bearer ${token.data.attributes.access_token}` };
    const started = performance.now();
    const calls = Array.from({ length: 9 }, () =>
      post("/transaction/v1/balance-inquiry", card, auth, abort.signal),
    );
    try {
      const first = await Promise.race(calls);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(first.status).toBe(429);
      expect(Number(first.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await first.json()).toMatchObject({
        errors: [{ status: "429", code: "too_many_held_requests" }],
      });
    } finally {
      abort.abort();
      await Promise.allSettled(calls);
    }
  });
});
