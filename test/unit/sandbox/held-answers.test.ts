/**
 * The answers the sandbox holds back (the slow test card) are bounded per caller and in all: past a bound the
 * call is answered at once (429 for the caller's, 503 for the sandbox's, with Retry-After in the sandbox's
 * error shape), and a hold that ends frees its place. Both for the handler (as the console mounts it) and the
 * standalone server, which counts by the peer's address.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "@/lib/sandbox";
import { MAX_HELD, MAX_HELD_PER_CALLER } from "@/lib/sandbox/limits";
import { startSandboxServer } from "@/lib/sandbox/server";

const SLOW_CARD = "6006491000000043";
const base = "http://sandbox.test";
const aborts: AbortController[] = [];
afterEach(() => {
  for (const abort of aborts.splice(0)) abort.abort();
});

async function tokenOf(send: (path: string, init: RequestInit) => Promise<Response>): Promise<string> {
  const response = await send("/reporting/v1/auth/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_id: "demo-client",
      client_secret: "demo-secret",
      grant_type: "client_credentials",
    }),
  });
  return ((await response.json()) as { data: { attributes: { access_token: string } } }).data.attributes
    .access_token;
}

function slowInit(token: string): RequestInit {
  const abort = new AbortController();
  aborts.push(abort);
  return {
    method: "POST",
    signal: abort.signal,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      data: {
        entry_mode: "keyed",
        card_number: SLOW_CARD,
        pin_mode: "none",
        originator: { location_id: "s-1" },
      },
    }),
  };
}

interface Tracked {
  answer: Promise<Response>;
  settled: boolean;
}

function track(answer: Promise<Response>): Tracked {
  const tracked: Tracked = { answer, settled: false };
  answer.then(
    () => (tracked.settled = true),
    () => (tracked.settled = true),
  );
  return tracked;
}

/**
 * Sends `count` slow calls at once (in no particular order of arrival) and waits for the first answer: it must
 * come at once, refused, while the others are all still held.
 */
async function oneRefused(send: () => Promise<Response>, count: number, status: number, code: string) {
  const started = performance.now();
  const calls = Array.from({ length: count }, () => track(send()));
  const first = await Promise.race(calls.map((call) => call.answer.then((response) => ({ call, response }))));
  expect(performance.now() - started).toBeLessThan(5_000);
  expect(first.response.status).toBe(status);
  expect(Number(first.response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(await first.response.json()).toMatchObject({ errors: [{ status: String(status), code }] });
  await Promise.resolve();
  expect(calls.filter((call) => call !== first.call && call.settled)).toEqual([]);
  return calls.filter((call) => call !== first.call);
}

describe("answers held back by the sandbox handler", () => {
  let sandbox: Sandbox;
  const send = (caller: string) => (path: string, init: RequestInit) =>
    sandbox.handle(new Request(`${base}${path}`, init), caller);
  const balance = (caller: string, token: string) =>
    send(caller)("/transaction/v1/balance-inquiry", slowInit(token));

  it("holds MAX_HELD_PER_CALLER per caller; the next is answered 429 at once; an ended hold frees its place", async () => {
    sandbox = createSandbox({ slowResponseMs: 600_000 });
    const token = await tokenOf(send("203.0.113.1"));
    const first = () => balance("203.0.113.1", token);
    const held = await oneRefused(first, MAX_HELD_PER_CALLER + 1, 429, "too_many_held_requests");
    // Another caller has its own bound.
    await oneRefused(
      () => balance("203.0.113.2", token),
      MAX_HELD_PER_CALLER + 1,
      429,
      "too_many_held_requests",
    );
    // The first caller's holds end (their client went away): their places are free again.
    for (const abort of aborts.slice(0, MAX_HELD_PER_CALLER + 1)) abort.abort();
    await Promise.allSettled(held.map((call) => call.answer));
    await oneRefused(first, MAX_HELD_PER_CALLER + 1, 429, "too_many_held_requests");
  });

  it("holds MAX_HELD in all, whoever the callers; the next is answered 503 at once", async () => {
    sandbox = createSandbox({ slowResponseMs: 600_000 });
    const token = await tokenOf(send("198.51.100.1"));
    let caller = 0;
    await oneRefused(() => balance(`198.51.100.${caller++}`, token), MAX_HELD + 1, 503, "sandbox_busy");
    // Fast answers are not held, so not bounded.
    const fast = await send("198.51.100.250")("/transaction/v1/balance-inquiry", {
      ...slowInit(token),
      body: JSON.stringify({
        data: {
          entry_mode: "keyed",
          card_number: "6006491000000001",
          pin_mode: "none",
          originator: { location_id: "s" },
        },
      }),
    });
    expect(fast.status).toBe(200);
  });
});

describe("answers held back by the standalone sandbox", () => {
  it("counts by the peer's address: the ninth slow call from one address is answered 429 at once", async () => {
    const server = await startSandboxServer({ port: 0, sandbox: createSandbox({ slowResponseMs: 600_000 }) });
    try {
      const send = (path: string, init: RequestInit) => fetch(`${server.url}${path}`, init);
      const token = await tokenOf(send);
      const slow = () => send("/transaction/v1/balance-inquiry", slowInit(token));
      const held = await oneRefused(slow, MAX_HELD_PER_CALLER + 1, 429, "too_many_held_requests");
      held.forEach((call) => call.answer.catch(() => {}));
    } finally {
      for (const abort of aborts.splice(0)) abort.abort();
      await server.close();
    }
  });
});
