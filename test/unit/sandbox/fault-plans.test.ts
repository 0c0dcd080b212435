/**
 * The standalone sandbox (`npm run sandbox`) applies a certification client's fault plan in its own HTTP
 * handling (docs/design.md §14): a reset is a TCP reset, a cut body is a short body behind valid headers, a drip
 * drips, and a demo client's calls meanwhile are answered as always. The port here stands in for the console's
 * database: one client, one plan, calls counted per kind.
 */
import { request } from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSandbox, type PlannedCall, type SandboxClientPort } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { parsePlanCode } from "@/lib/shared/fault-families";
import { kindOfOperation } from "@/lib/shared/fault-families";

const CLIENT = "cert-faults";
let plan = parsePlanCode("");
let counts: Record<string, number> = {};
const recorded: string[] = [];

const port: SandboxClientPort = {
  authenticate: async (clientId, secret) =>
    clientId === CLIENT && secret === "s3cret"
      ? { clientId, scopes: ["read:transactions"], expiresIn: 7200, revokedBeforeMs: null, faultPlans: true }
      : undefined,
  find: async (clientId) =>
    clientId === CLIENT
      ? { clientId, scopes: ["read:transactions"], expiresIn: 7200, revokedBeforeMs: null, faultPlans: true }
      : undefined,
  take: async () => "normal",
  record: async (call) => {
    recorded.push(`${call.operation}:${call.response.status}:${call.behaviour ?? ""}`);
  },
  refused: async () => undefined,
  planCall: async (_clientId, operation): Promise<PlannedCall | null> => {
    const kind = kindOfOperation(operation)!;
    counts[kind] = (counts[kind] ?? 0) + 1;
    const faults = plan.ok ? plan.faults : [];
    const fault = faults.find((item) => item.kind === kind && item.ordinal === counts[kind]);
    return { planId: "plan-1", seq: counts[kind]!, family: fault?.family ?? null, clientTimeoutMs: 400 };
  },
};

let server: SandboxServer;
beforeAll(async () => {
  server = await startSandboxServer({ port: 0, sandbox: createSandbox({ clients: port }) });
});
afterAll(() => server.close());

function arm(code: string) {
  plan = parsePlanCode(code);
  counts = {};
}

async function tokenOf(clientId: string, secret: string): Promise<string> {
  const answer = await fetch(`${server.url}/reporting/v1/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: clientId, client_secret: secret, grant_type: "client_credentials" }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: { attributes: { access_token: string } } }).data.attributes
    .access_token;
}

interface RawAnswer {
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  body: string;
  /** The error the socket ended with (ECONNRESET for a reset), or the response stream's. */
  error?: string;
  chunkTimes: number[];
}

/** A Gift Balance Inquiry over node:http, seeing the socket as it is: status, body bytes, their times, the error. */
function rawGift(token: string, requestId: string): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const result: RawAnswer = { body: "", chunkTimes: [] };
    const started = Date.now();
    const body = JSON.stringify({
      data: {
        entry_mode: "keyed",
        card_number: "6006491000000001",
        pin_mode: "none",
        originator: { location_id: "s" },
      },
    });
    const outgoing = request(`${server.url}/transaction/v1/gift/balance-inquiry`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "x-request-id": requestId,
      },
    });
    outgoing.on("response", (incoming) => {
      result.status = incoming.statusCode;
      result.headers = incoming.headers;
      incoming.on("data", (chunk: Buffer) => {
        result.body += chunk.toString();
        result.chunkTimes.push(Date.now() - started);
      });
      incoming.on("aborted", () => (result.error ??= "aborted"));
      incoming.on("error", (error: NodeJS.ErrnoException) => (result.error ??= error.code ?? error.message));
      incoming.on("close", () => resolve(result));
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      result.error = error.code ?? error.message;
      resolve(result);
    });
    outgoing.end(body);
  });
}

test("a reset after commit resets the socket, and the transaction was recorded", async () => {
  const token = await tokenOf(CLIENT, "s3cret");
  arm("gift#1:reset_after_commit");
  const answer = await rawGift(token, "r-reset");
  expect(answer.status).toBeUndefined();
  expect(answer.error).toBe("ECONNRESET");
  const lookup = await fetch(`${server.url}/transaction/v1/transactions/request-id/r-reset`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(lookup.status).toBe(200);
  await expect.poll(() => recorded).toContain("gift_balance_inquiry:0:reset");
});

test("a cut body is valid headers and half a JSON body; the next call of the kind is answered normally", async () => {
  const token = await tokenOf(CLIENT, "s3cret");
  arm("gift#1:body_cut");
  const cut = await rawGift(token, "r-cut-1");
  expect(cut.status).toBe(201);
  expect(cut.headers?.["content-type"]).toMatch(/application\/json/);
  expect(() => JSON.parse(cut.body)).toThrow();
  expect(cut.body).toMatch(/^\{"data":\{/);
  const next = await rawGift(token, "r-cut-2");
  expect(JSON.parse(next.body)).toMatchObject({ data: { response_status: "approved" } });
});

test("a cut with its whole Content-Length announced ends in a dead connection", async () => {
  const token = await tokenOf(CLIENT, "s3cret");
  arm("gift#1:body_cut_close");
  const cut = await rawGift(token, "r-close");
  expect(cut.status).toBe(201);
  expect(Number(cut.headers?.["content-length"])).toBeGreaterThan(cut.body.length);
  expect(cut.error).toBeDefined();
});

test("a drip sends the body piece by piece past the client's timeout, while a demo client is answered at once", async () => {
  const token = await tokenOf(CLIENT, "s3cret");
  const demo = await tokenOf("demo-client", "demo-secret");
  arm("gift#1:drip_body");
  const dripping = rawGift(token, "r-drip");
  const started = Date.now();
  const other = await rawGift(demo, "r-demo");
  expect(other.status).toBe(201);
  expect(Date.now() - started).toBeLessThan(2000);
  const dripped = await dripping;
  expect(JSON.parse(dripped.body)).toMatchObject({ data: { response_status: "approved" } });
  expect(dripped.chunkTimes.length).toBeGreaterThan(5);
  expect(dripped.chunkTimes.at(-1)!).toBeGreaterThan(400);
});
