/**
 * Certification through the console's routes (production build): the whole catalogue on the embedded
 * sandbox, read back, its bundle downloaded and verified (as `npm run verify-evidence` does, and with the
 * published key), the upload check, bad input as 4xx, production Gift Balance Inquiry gating against a
 * real HTTP upstream, a concurrent user's session surviving TOK-09's revocation, and a run whose server
 * died marked interrupted after a restart.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { compactVerify, importJWK, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import type { RunListResponse, RunView, VerifyResponse } from "@/lib/shared/certification-api";
import { verifyEvidence } from "@/lib/server/certification/evidence/verify";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { startConsole, type ConsoleServer } from "../../support/console-server";
import { seedDataDir } from "../../support/pglite-template";
import { ConsoleClient, demoClient as connectedDemoClient } from "@/test/support/http-client";

const CARD = "6006491000000001";
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;

interface ErrorShape {
  error: { code: string; message: string; details?: { fields?: Record<string, string[]> } };
}

const work = mkdtempSync(path.join(os.tmpdir(), "cert-routes-"));
const upstreamSandbox = createSandbox();
/** Balance Inquiries wait here while `held` is set: a run stays in the middle of a case for as long as needed. */
let held: Promise<void> | undefined;
let release: () => void = () => {};
let upstream: SandboxServer;
let server: ConsoleServer;

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function readRun(client: ConsoleClient, id: string): Promise<RunView> {
  const { status, body } = await client.json<RunView>("GET", `/api/certification/runs/${id}`);
  expect(status).toBe(200);
  return body;
}

function runEnded(client: ConsoleClient, id: string): Promise<RunView> {
  return waitFor(
    () => readRun(client, id),
    (run) => run.status !== "queued" && run.status !== "running",
    `run ${id} to end`,
  );
}

async function startRun(client: ConsoleClient, body: unknown): Promise<string> {
  const {
    status,
    body: answer,
    response,
  } = await client.json<{ id: string }>("POST", "/api/certification/runs", { body });
  expect(status, JSON.stringify(answer)).toBe(202);
  expect(response.headers.get("location")).toBe(`/api/certification/runs/${answer.id}`);
  return answer.id;
}

async function download(client: ConsoleClient, id: string): Promise<{ zip: Uint8Array; response: Response }> {
  const response = await client.send("GET", `/api/certification/runs/${id}/evidence`);
  expect(response.status).toBe(200);
  return { zip: new Uint8Array(await response.arrayBuffer()), response };
}

beforeAll(async () => {
  upstream = await startSandboxServer({
    port: 0,
    sandbox: {
      ...upstreamSandbox,
      handle: async (request: Request) => {
        if (held && new URL(request.url).pathname === "/transaction/v1/balance-inquiry") await held;
        return upstreamSandbox.handle(request);
      },
    },
  });
  const profile = path.join(work, "profile.json");
  writeFileSync(
    profile,
    JSON.stringify({
      cards: { active: CARD, declined: "6006491000000027" },
      location_id: "cert-location-1",
      transaction_lookup: true,
    }),
  );
  // The run's migrated database, copied: these tests are about runs, not about creating a database.
  seedDataDir(path.join(work, "data"));
  server = await startConsole({
    CARD_API_AUTH_URL: upstream.url,
    CARD_API_SANDBOX_URL: upstream.url,
    CARD_API_PRODUCTION_URL: upstream.url,
    CERTIFICATION_PROFILE: profile,
    DATA_DIR: path.join(work, "data"),
  });
}, 120_000);

afterAll(async () => {
  release();
  await server?.stop();
  await upstream?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("certification runs over HTTP", () => {
  it("runs the catalogue on the embedded sandbox; the run, its list entry and its signed bundle are readable", async () => {
    // Another user, signed in with a token, before the run: TOK-09 revokes every embedded token.
    const bystander = await connectedDemoClient(server.url);
    const before = await bystander.json<ExchangeRecord>("POST", "/api/inquiries/balance", {
      body: { card_number: CARD, location_id: "loc-1" },
    });
    expect(before.body.response.status).toBe(200);

    const tester = await connectedDemoClient(server.url);
    const id = await startRun(tester, { environment: "embedded" });
    const first = await readRun(tester, id);
    expect(["queued", "running", "done"]).toContain(first.status);
    expect(first.total).toBe(25);

    const run = await runEnded(tester, id);
    expect(run.status).toBe("done");
    expect(run.done).toBe(25);
    expect(run.operator).toBe("Local user");
    expect(run.operator_id).toBe("local");
    expect(run.client_id).toBe("demo-client");
    const verdicts = Object.fromEntries(run.results.map((result) => [result.id, result.verdict]));
    expect(run.results.filter((result) => result.verdict === "fail")).toEqual([]);
    expect(verdicts["AUTH-03"]).toBe("not_applicable");
    expect(verdicts["GBI-05"]).toBe("observed");
    expect(verdicts["TOK-09"]).toBe("pass");
    expect(run.summary.fail).toBe(0);
    const checked = run.results.find((result) => result.id === "BI-01")!;
    expect(checked.checks.length).toBeGreaterThan(0);
    expect(checked.exchange_ids.every((exchangeId) => run.exchanges.some((e) => e.id === exchangeId))).toBe(
      true,
    );
    const text = JSON.stringify(run);
    expect(text).not.toMatch(JWT);
    expect(text).not.toContain("demo-secret");
    expect(text).not.toContain(CARD);

    const list = await tester.json<RunListResponse>("GET", "/api/certification/runs");
    const listed = list.body.runs.find((item) => item.id === id);
    expect(listed).toMatchObject({ status: "done", environment: "embedded", total: 25, done: 25 });
    expect(listed?.verdicts).toHaveLength(25);

    // The bundle: an attachment, intact, signed with the published key, the same bytes every time.
    const { zip, response } = await download(tester, id);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="certification-embedded-[\w.-]+\.zip"$/,
    );
    expect(Buffer.from((await download(tester, id)).zip).equals(Buffer.from(zip))).toBe(true);
    const verified = await verifyEvidence(zip);
    expect(verified.problems).toEqual([]);
    const publicKey = await tester.json<JWK>("GET", "/api/certification/public-key");
    expect(publicKey.status).toBe(200);
    expect(publicKey.body).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA" });
    expect(publicKey.body).not.toHaveProperty("d");
    expect((await verifyEvidence(zip, { trustedKey: publicKey.body })).ok).toBe(true);
    const files = unzipSync(zip);
    const { payload } = await compactVerify(
      strFromU8(files["manifest.jws"]!).trim(),
      await importJWK(publicKey.body, "EdDSA"),
    );
    expect(Buffer.from(payload).equals(Buffer.from(files["manifest.json"]!))).toBe(true);
    const manifest = JSON.parse(strFromU8(files["manifest.json"]!)) as {
      run: { id: string; operator_id: string; status: string };
      cases: unknown[];
    };
    expect(manifest.run).toMatchObject({ id, operator_id: "local", status: "done" });
    expect(manifest.cases).toHaveLength(25);

    // The upload check on the page: intact, and signed by this console; a changed file is named.
    const upload = (bytes: Uint8Array) =>
      tester.json<VerifyResponse>("POST", "/api/certification/verify", {
        rawBody: bytes as unknown as string,
        headers: { "content-type": "application/zip" },
      });
    const intact = await upload(zip);
    expect(intact.status).toBe(200);
    expect(intact.body).toMatchObject({ ok: true, problems: [], signed_by_this_console: true });
    expect(intact.body.run).toMatchObject({ id, environment: "embedded", status: "done" });
    const changed = zipSync({ ...files, "results.csv": strToU8("case,verdict\nBI-01,pass\n") });
    const tampered = await upload(changed);
    expect(tampered.status).toBe(200);
    expect(tampered.body.ok).toBe(false);
    expect(tampered.body.problems.join("\n")).toMatch(/results\.csv was changed/);

    // The bystander's next inquiry still succeeds: its token was revoked, the broker renewed once and retried.
    const after = await bystander.json<ExchangeRecord>("POST", "/api/inquiries/balance", {
      body: { card_number: CARD, location_id: "loc-1" },
    });
    expect(after.status).toBe(200);
    expect(after.body.response.status).toBe(200);
    expect(after.body.token_events.map((event) => event.type)).toContain("renewed_after_401");
  });

  it("answers bad input with a 4xx in the one error shape", async () => {
    const tester = await connectedDemoClient(server.url);
    const post = (body: unknown) => tester.json<ErrorShape>("POST", "/api/certification/runs", { body });
    const unknownEnvironment = await post({ environment: "staging" });
    expect(unknownEnvironment.status).toBe(400);
    expect(unknownEnvironment.body.error.code).toBe("validation_failed");
    const unknownCase = await post({ environment: "embedded", cases: ["XYZ-99"] });
    expect(unknownCase.status).toBe(400);
    expect(unknownCase.body.error.message).toMatch(/XYZ-99/);
    const malformedCase = await post({ environment: "embedded", cases: ["<script>"] });
    expect(malformedCase.status).toBe(400);
    expect(malformedCase.body.error.details?.fields).toHaveProperty("cases.0");
    const giftOutsideProduction = await post({ environment: "embedded", allow_production_gift: true });
    expect(giftOutsideProduction.status).toBe(400);
    expect(giftOutsideProduction.body.error.details?.fields).toHaveProperty("allow_production_gift");
    const extra = await post({ environment: "embedded", operator: "someone else" });
    expect(extra.status).toBe(400);
    const notJson = await tester.json<ErrorShape>("POST", "/api/certification/runs", {
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.body.error.code).toBe("invalid_json");
    const wrongType = await tester.json<ErrorShape>("POST", "/api/certification/runs", {
      rawBody: JSON.stringify({ environment: "embedded" }),
      headers: { "content-type": "text/plain" },
    });
    expect(wrongType.status).toBe(415);
    const crossSite = await tester.json<ErrorShape>("POST", "/api/certification/runs", {
      body: { environment: "embedded" },
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.code).toBe("invalid_origin");

    const nobody = new ConsoleClient(server.url);
    const noCredentials = await nobody.json<ErrorShape>("POST", "/api/certification/runs", {
      body: { environment: "embedded" },
    });
    expect(noCredentials.status).toBe(401);
    expect(noCredentials.body.error.code).toBe("no_credentials");

    for (const missing of ["not-a-run", crypto.randomUUID()]) {
      const read = await tester.json<ErrorShape>("GET", `/api/certification/runs/${missing}`);
      expect(read.status).toBe(404);
      expect(read.body.error.code).toBe("not_found");
      const evidence = await tester.json<ErrorShape>("GET", `/api/certification/runs/${missing}/evidence`);
      expect(evidence.status).toBe(404);
    }
    const deleted = await tester.json<ErrorShape>("DELETE", "/api/certification/runs");
    expect(deleted.status).toBe(405);

    // The upload takes exactly application/zip, bounded in size; an unreadable file is a result, not an error.
    const verify = (rawBody: string | Uint8Array, type: string) =>
      tester.json<ErrorShape & VerifyResponse>("POST", "/api/certification/verify", {
        rawBody: rawBody as string,
        headers: { "content-type": type },
      });
    expect((await verify("{}", "application/json")).status).toBe(415);
    expect((await verify("", "application/zip")).status).toBe(400);
    const tooLarge = await verify(new Uint8Array(20 * 1024 * 1024 + 1), "application/zip");
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe("payload_too_large");
    const garbage = await verify("not a zip at all", "application/zip");
    expect(garbage.status).toBe(200);
    expect(garbage.body).toMatchObject({ ok: false, signed_by_this_console: false });
    expect(garbage.body.problems[0]).toMatch(/not a readable zip/);
    const noOrigin = await tester.json<ErrorShape>("POST", "/api/certification/verify", {
      rawBody: "x",
      headers: { "content-type": "application/zip" },
      origin: null,
    });
    expect(noOrigin.status).toBe(403);
  });

  it("in production runs Gift Balance Inquiry cases only with allow_production_gift", async () => {
    const tester = new ConsoleClient(server.url);
    const credentials = await tester.json("PUT", "/api/session/credentials", {
      body: { client_id: "demo-client", client_secret: "demo-secret" },
    });
    expect(credentials.status).toBe(200);
    const transactionsBefore = upstreamSandbox.stats().transactions;

    const guarded = await runEnded(
      tester,
      await startRun(tester, { environment: "production", cases: ["GBI-01", "GBI-03", "BI-01"] }),
    );
    expect(guarded.status).toBe("done");
    const byId = Object.fromEntries(guarded.results.map((result) => [result.id, result]));
    expect(byId["GBI-01"]?.verdict).toBe("not_applicable");
    expect(byId["GBI-01"]?.reason).toMatch(/allow_production_gift/);
    expect(byId["GBI-03"]?.verdict).toBe("not_applicable");
    expect(byId["BI-01"]?.verdict).toBe("pass");
    expect(guarded.exchanges.some((exchange) => exchange.operation === "gift_balance_inquiry")).toBe(false);
    expect(upstreamSandbox.stats().transactions).toBe(transactionsBefore);

    const allowed = await runEnded(
      tester,
      await startRun(tester, { environment: "production", cases: ["GBI-01"], allow_production_gift: true }),
    );
    expect(allowed.allow_production_gift).toBe(true);
    expect(allowed.results.map((result) => [result.id, result.verdict])).toEqual([["GBI-01", "pass"]]);
    expect(upstreamSandbox.stats().transactions).toBe(transactionsBefore + 1);
    const bundle = await verifyEvidence((await download(tester, allowed.id)).zip);
    expect(bundle.ok).toBe(true);
  });

  it("says which environments can be certified, shows a case's stored exchange, and cancels a run mid-wait", async () => {
    const tester = await connectedDemoClient(server.url);
    const list = await tester.json<RunListResponse>("GET", "/api/certification/runs");
    expect(list.body.environments.find((item) => item.name === "embedded")).toEqual({
      name: "embedded",
      certifiable: true,
    });
    // A stored exchange of an ended run, as the run page shows it: masked and redacted, no token.
    const done = list.body.runs.find((run) => run.status === "done" && run.environment === "embedded");
    const [first] = (await readRun(tester, done!.id)).exchanges;
    const one = await tester.json<ExchangeRecord>(
      "GET",
      `/api/certification/runs/${done!.id}/exchanges/${encodeURIComponent(first!.id)}`,
    );
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(first!.id);
    expect(JSON.stringify(one.body)).not.toMatch(JWT);
    expect((await tester.json("GET", `/api/certification/runs/${done!.id}/exchanges/nope`)).status).toBe(404);

    // AUTH-03 waits for the short-lived client's token to expire (about 60 s): cancelled during the wait.
    const id = await startRun(tester, {
      environment: "embedded",
      cases: ["AUTH-03", "BI-01"],
      wait_for_token_expiry: true,
    });
    await waitFor(
      () => readRun(tester, id),
      (run) => run.status === "running",
      "the run to start",
    );
    const cancelled = await tester.json<RunView>("POST", `/api/certification/runs/${id}/cancel`, {
      body: {},
    });
    expect(cancelled.status).toBe(200);
    const ended = await runEnded(tester, id);
    expect(ended.status).toBe("cancelled");
    expect(ended.results.map((result) => [result.id, result.verdict])).toEqual([
      ["AUTH-03", "not_applicable"],
    ]);
    expect(ended.results[0]!.reason).toContain("cancelled");
    // Cancelling an ended run changes nothing.
    expect(
      (await tester.json<RunView>("POST", `/api/certification/runs/${id}/cancel`, { body: {} })).body.status,
    ).toBe("cancelled");
    const verified = await verifyEvidence((await download(tester, id)).zip);
    expect(verified.ok).toBe(true);
    expect((verified.manifest as { run: { status: string } }).run.status).toBe("cancelled");
  });

  it("marks a run whose server died interrupted, never resumed, and still signs what ran", async () => {
    const tester = new ConsoleClient(server.url);
    await tester.json("PUT", "/api/session/credentials", {
      body: { client_id: "demo-client", client_secret: "demo-secret" },
    });
    held = new Promise<void>((resolve) => (release = resolve));
    const id = await startRun(tester, { environment: "sandbox", cases: ["TOK-01", "BI-01", "VER-01"] });
    // TOK-01 done, BI-01 waiting on the upstream: the server dies mid-case.
    await waitFor(
      () => readRun(tester, id),
      (run) => run.status === "running" && run.done === 1,
      "the run to be inside BI-01",
    );
    await server.stop();
    release();
    held = undefined;

    server = await startConsole({
      CARD_API_AUTH_URL: upstream.url,
      CARD_API_SANDBOX_URL: upstream.url,
      CARD_API_PRODUCTION_URL: upstream.url,
      DATA_DIR: path.join(work, "data"),
    });
    const reader = new ConsoleClient(server.url);
    const run = await readRun(reader, id);
    expect(run.status).toBe("interrupted");
    expect(run.done).toBe(1);
    expect(run.results.map((result) => result.id)).toEqual(["TOK-01"]);
    expect(run.evidence_ready).toBe(true);
    const { zip } = await download(reader, id);
    const verified = await verifyEvidence(zip);
    expect(verified.ok).toBe(true);
    expect((verified.manifest as { run: { status: string } }).run.status).toBe("interrupted");
  });
});
