/**
 * Integration certification judged from real traffic (docs/design.md §11): client applications written with plain
 * fetch talk HTTP to the sandbox, whose registered-client port is the database-backed one the console uses. A
 * well-behaved client passes all eight checks; each flawed client fails exactly the check for its flaw, and
 * says why in `observed`. The bundle verifies and holds no secret.
 */
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { buildClientEvidence } from "@/lib/server/client-certification/evidence";
import {
  createClientCertificationService,
  type ClientCertificationService,
} from "@/lib/server/client-certification/service";
import { verifyEvidence } from "@/lib/server/certification/evidence/verify";
import { sweepAbandonedWork } from "@/lib/server/root/sweep";
import { loadEvidenceSigningKey } from "@/lib/server/certification/signing-key";
import { generateEd25519Pem } from "@/lib/server/util/generated-key";
import {
  ACTIVE_CARD,
  INACTIVE_CARD,
  type ClientCheckId,
  type StartedClientCertification,
} from "@/lib/shared/client-certification-contract";
import { eq } from "drizzle-orm";
import { clientCertifications } from "@/lib/server/database/schema";
import { MAX_KEPT_CALLS } from "@/lib/server/client-certification/store";
import { CardApiClient, type ClientEnv, type Flaw, type TokenEncoding } from "../../support/card-api-clients";
import { useBackend } from "../storage/backends";

const LOCAL = { id: "local", admin: false };
const HMAC_KEY = "client-certification-test-hmac-key-0123456789";

let service: ClientCertificationService;
let server: SandboxServer;

function envOf(started: StartedClientCertification): ClientEnv {
  return {
    CARD_API_AUTH_URL: started.auth_url,
    CARD_API_BASE_URL: started.base_url,
    CARD_API_CLIENT_ID: started.client_id,
    CARD_API_CLIENT_SECRET: started.client_secret,
  };
}

/** The five steps, as a person or a CI suite would go through them. */
async function certify(flaw?: Flaw, encoding: TokenEncoding = "json") {
  const started = await service.start({ id: "local", name: "Local user" }, server.url);
  const client = new CardApiClient(envOf(started), flaw, 1500, encoding);
  await service.arm(started.id, "tokens", LOCAL);
  for (let call = 0; call < 3; call += 1) await client.balance(ACTIVE_CARD);
  await service.arm(started.id, "declined", LOCAL);
  expect((await client.gift(INACTIVE_CARD)).responseStatus).toBe("declined");
  await service.arm(started.id, "revoked", LOCAL);
  await client.gift(ACTIVE_CARD);
  await service.arm(started.id, "timeout", LOCAL);
  await client.gift(ACTIVE_CARD);
  await service.arm(started.id, "rate_limited", LOCAL);
  await client.balance(ACTIVE_CARD);
  await client.balance(ACTIVE_CARD);
  const finished = await service.finish(started.id, LOCAL);
  return { started, finished };
}

describe("integration certification of client applications", () => {
  const backend = useBackend("pglite");

  beforeAll(async () => {
    service = createClientCertificationService({ db: backend.handle.db, hmacKey: HMAC_KEY });
    const sandbox = createSandbox({ basePath: "/sandbox", clients: service.port() });
    server = await startSandboxServer({ port: 0, sandbox });
  });
  afterAll(() => server?.close());

  test("a well-behaved client passes all eight checks; the bundle verifies and holds no secret", async () => {
    const { started, finished } = await certify();
    expect(finished.status).toBe("done");
    for (const check of finished.checks)
      expect({ id: check.id, verdict: check.verdict, observed: check.observed }).toMatchObject({
        verdict: "pass",
      });
    expect(finished.exchanges.length).toBeGreaterThanOrEqual(12);

    const key = await loadEvidenceSigningKey({
      env: { EVIDENCE_SIGNING_KEY: generateEd25519Pem() },
      warn: () => {},
    });
    const bundle = await buildClientEvidence(service, started.id, LOCAL, { key });
    const verified = await verifyEvidence(bundle.zip);
    expect(verified.problems).toEqual([]);
    expect(verified.ok).toBe(true);
    const files = unzipSync(bundle.zip);
    expect(JSON.parse(strFromU8(files["manifest.json"]!))).toMatchObject({ kind: "client" });
    for (const [name, bytes] of Object.entries(files)) {
      expect(strFromU8(bytes), name).not.toContain(started.client_secret);
    }
    expect(JSON.stringify(finished)).not.toContain(started.client_secret);
  });

  const FLAWED: [Flaw, ClientCheckId, RegExp][] = [
    ["token_per_call", "CLI-TOKEN-REUSE", /token request\(s\)/],
    ["new_id_after_401", "CLI-RENEW-401", /X-Request-Id/],
    ["one_request_id", "CLI-REQUEST-ID-UNIQUE", /two different bodies/],
    ["new_inquiry_after_timeout", "CLI-TIMEOUT-LOOKUP", /new Gift Balance Inquiry/],
    ["retry_declined", "CLI-DECLINE-NO-RETRY", /new X-Request-Id/],
    ["ignore_retry_after", "CLI-RETRY-AFTER", /after the 429/],
    ["secret_in_header", "CLI-SECRET-ONLY-AT-TOKEN", /header x-client-secret/],
    ["no_originator", "CLI-WELL-FORMED", /API specification §2\.3/],
  ];

  // Each certification is its own client's (arming included), so they run side by side: most of a
  // certification's time is the timeout step's wait and the 429's Retry-After, not work.
  test.concurrent.each(FLAWED)(
    "a client with the flaw %s fails %s, and only it",
    async (flaw, failing, why) => {
      const { started, finished } = await certify(flaw);
      const failed = finished.checks.filter((check) => check.verdict === "fail").map((check) => check.id);
      expect(failed).toEqual([failing]);
      // A client that never keeps a token never meets the revoked step's 401: that check is not observed.
      const unseen = flaw === "token_per_call" ? ["CLI-RENEW-401"] : [];
      const passing = finished.checks.filter((check) => check.verdict === "pass").map((check) => check.id);
      expect(passing).toHaveLength(7 - unseen.length);
      expect(finished.checks.find((check) => check.id === failing)?.observed).toMatch(why);
      expect(JSON.stringify(finished)).not.toContain(started.client_secret);
    },
  );

  test.concurrent.each(["form", "basic"] as const)(
    "token requests in the OAuth form (%s) are recorded: a well-behaved client passes, one token per call fails CLI-TOKEN-REUSE",
    async (encoding) => {
      const good = await certify(undefined, encoding);
      expect(good.finished.checks.filter((check) => check.verdict !== "pass")).toEqual([]);
      expect(good.finished.exchanges.filter((call) => call.operation === "token").length).toBeGreaterThan(0);
      const { finished } = await certify("token_per_call", encoding);
      const reuse = finished.checks.find((check) => check.id === "CLI-TOKEN-REUSE");
      expect(reuse?.verdict).toBe("fail");
      expect(JSON.stringify(finished)).not.toContain(good.started.client_secret);
    },
  );

  test("a refused token request is counted, never kept; a kept call is numbered and the log pages on it", async () => {
    const started = await service.start({ id: "local", name: "Local user" }, server.url);
    const wrong = (body: string, type = "application/json") =>
      fetch(`${server.url}/sandbox/reporting/v1/auth/token`, {
        method: "POST",
        headers: { "Content-Type": type },
        body,
      }).then((response) => response.status);
    const pad = "x".repeat(50_000);
    expect(
      await wrong(
        JSON.stringify({
          client_id: started.client_id,
          client_secret: "wrong",
          grant_type: "client_credentials",
          pad,
        }),
      ),
    ).toBe(400);
    expect(
      await wrong(
        `grant_type=client_credentials&client_id=${started.client_id}&client_secret=nope&pad=${pad}`,
        "application/x-www-form-urlencoded",
      ),
    ).toBe(400);
    const client = new CardApiClient(envOf(started));
    for (let call = 0; call < 3; call += 1) await client.balance(ACTIVE_CARD);
    await expect
      .poll(async () => (await service.get(started.id, LOCAL)).calls.refused_token_requests)
      .toBe(2);
    const view = await service.get(started.id, LOCAL);
    expect(view.calls).toMatchObject({ kept: 4, dropped: 0, refused_token_requests: 2 });
    expect(view.calls.last_refused_at).not.toBeNull();
    expect(view.exchanges.map((call) => call.seq)).toEqual([1, 2, 3, 4]);
    expect(JSON.stringify(view)).not.toContain(pad.slice(0, 1000));
    const page = await service.get(started.id, LOCAL, { after: 2, limit: 1 });
    expect(page.exchanges.map((call) => call.seq)).toEqual([3]);
  });

  test("a certification keeps at most MAX_KEPT_CALLS calls, then counts the ones it drops", async () => {
    const started = await service.start({ id: "local", name: "Local user" }, server.url);
    await backend.handle.db
      .update(clientCertifications)
      .set({ callsKept: MAX_KEPT_CALLS - 1 })
      .where(eq(clientCertifications.id, started.id));
    const client = new CardApiClient(envOf(started));
    for (let call = 0; call < 2; call += 1) await client.balance(ACTIVE_CARD);
    const view = await service.get(started.id, LOCAL);
    expect(view.calls).toMatchObject({ kept: MAX_KEPT_CALLS, dropped: 2 });
    expect(view.exchanges.map((call) => call.seq)).toEqual([MAX_KEPT_CALLS]);
  });

  test("a certification is its starter's: anyone else finds none, an admin finds it", async () => {
    const started = await service.start({ id: "alice", name: "Alice" }, server.url);
    const bob = { id: "bob", admin: false };
    await expect(service.get(started.id, bob)).rejects.toMatchObject({ code: "not_found" });
    await expect(service.arm(started.id, "tokens", bob)).rejects.toMatchObject({ code: "not_found" });
    await expect(service.finish(started.id, bob)).rejects.toMatchObject({ code: "not_found" });
    expect((await service.list(bob)).map((item) => item.id)).not.toContain(started.id);
    expect((await service.list({ id: "alice", admin: false })).map((item) => item.id)).toEqual([started.id]);
    expect((await service.get(started.id, { id: "root", admin: true })).id).toBe(started.id);
  });

  test("checks whose traffic did not happen are not_observed, never a pass", async () => {
    const started = await service.start({ id: "local", name: "Local user" }, server.url);
    const view = await service.finish(started.id, LOCAL);
    expect(new Set(view.checks.map((check) => check.verdict))).toEqual(new Set(["not_observed"]));
  });

  test("the steps arm behaviour for this client only: another certification's client is answered normally", async () => {
    const first = await service.start({ id: "local", name: "Local user" }, server.url);
    const second = await service.start({ id: "local", name: "Local user" }, server.url);
    const other = new CardApiClient(envOf(second));
    await service.arm(second.id, "tokens", LOCAL);
    await service.arm(first.id, "rate_limited", LOCAL);
    await service.arm(first.id, "revoked", LOCAL);
    expect(await other.balance(ACTIVE_CARD)).toBe(200);
    const demo = await fetch(`${server.url}/sandbox/reporting/v1/auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        client_id: "demo-client",
        client_secret: "demo-secret",
        grant_type: "client_credentials",
      }),
    });
    expect(demo.status).toBe(200);
    expect((await service.get(first.id, LOCAL)).exchanges).toEqual([]);
  });

  test("a certification not finished 2 h after its start is judged as it stands and set expired", async () => {
    const started = await service.start({ id: "local", name: "Local user" }, server.url);
    const client = new CardApiClient(envOf(started));
    await service.arm(started.id, "tokens", LOCAL);
    for (let call = 0; call < 2; call += 1) await client.balance(ACTIVE_CARD);
    const later = createClientCertificationService({
      db: backend.handle.db,
      hmacKey: HMAC_KEY,
      now: () => Date.parse(started.started_at) + 2 * 60 * 60 * 1000 + 1,
    });
    const expired = await later.get(started.id, LOCAL);
    expect(expired.status).toBe("expired");
    expect(expired.checks.find((check) => check.id === "CLI-TOKEN-REUSE")?.verdict).toBe("pass");
    expect(await later.port().authenticate(started.client_id, started.client_secret)).toBeUndefined();
  });

  test("the background sweep expires overdue certifications nobody reads", async () => {
    const started = await service.start({ id: "local", name: "Local user" }, server.url);
    const later = createClientCertificationService({
      db: backend.handle.db,
      hmacKey: HMAC_KEY,
      now: () => Date.parse(started.started_at) + 2 * 60 * 60 * 1000 + 1,
    });
    const result = await sweepAbandonedWork({
      db: backend.handle.db,
      runner: { ensureRunning: async () => {} },
      runs: { interruptStale: async () => 0 },
      clientCertifications: later,
    });
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect((await service.store.get(started.id))?.status).toBe("expired");
  });
});
