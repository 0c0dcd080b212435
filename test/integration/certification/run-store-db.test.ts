/**
 * Certification runs in the database, on PGlite and on a real PostgreSQL: a run written by the runner reads
 * back whole (results, checks, masked exchanges), the list is newest first with verdicts, a run whose
 * process died is interrupted (stale heartbeat; every active run on a single-process PGlite start) and is
 * never written again, and the signed bundle is kept once: a second build does not replace it.
 */
import { describe, expect, test } from "vitest";
import { createCardApiClient } from "@/lib/server/card-api/client";
import { inProcessTransport } from "@/lib/server/card-api/transport";
import { createDatabaseRunStore } from "@/lib/server/certification/db-run-store";
import { buildEvidenceBundle } from "@/lib/server/certification/evidence/bundle";
import { verifyEvidence } from "@/lib/server/certification/evidence/verify";
import { runCertification } from "@/lib/server/certification/runner";
import { loadEvidenceSigningKey } from "@/lib/server/certification/signing-key";
import type { RunState } from "@/lib/shared/certification-contract";
import { generateEd25519Pem } from "@/lib/server/util/generated-key";
import { createSandbox } from "@/lib/sandbox";
import { PROFILE } from "../../unit/server/certification/harness";
import { BACKENDS, useBackend } from "../storage/backends";

const BASE = "http://sandbox.test";

function manualClock(start = Date.parse("2026-03-01T09:00:00.000Z")) {
  let at = start;
  return {
    now: () => new Date(at),
    advance: (ms: number) => {
      at += ms;
    },
  };
}

function runOf(id: string, status: RunState["status"], startedAt: string): RunState {
  return {
    id,
    status,
    environment: { name: "embedded", auth_url: BASE, base_url: BASE },
    client_id: "demo-client",
    operator: "Local user",
    operator_id: "local",
    allow_production_gift: false,
    case_ids: ["BI-01"],
    total: 1,
    done: 0,
    started_at: startedAt,
    results: [],
    exchanges: [],
    tokens: [],
  };
}

describe.each(BACKENDS)("certification runs on %s", (kind) => {
  const backend = useBackend(kind);

  test("a run the runner wrote reads back whole, and the list shows it with its verdicts", async () => {
    const store = createDatabaseRunStore({ db: backend.handle.db });
    const sandbox = createSandbox();
    const run = await runCertification({
      environment: {
        name: "embedded",
        authUrl: BASE,
        baseUrl: BASE,
        transport: "embedded",
        client: createCardApiClient({
          transport: inProcessTransport((request) => sandbox.handle(request)),
          authUrl: BASE,
          baseUrl: BASE,
          timeoutMs: 5000,
        }),
      },
      profile: PROFILE,
      operator: "Alice Tester",
      operatorId: "alice",
      allowProductionGift: false,
      renewSkewSeconds: 120,
      maxExpiryWaitMs: 0,
      caseIds: ["GBI-01", "BI-01"],
      store,
    });
    const read = await store.get(run.id);
    expect(read).toEqual(run);
    expect(read?.status).toBe("done");
    expect(read?.operator_id).toBe("alice");
    // Card numbers stay masked in what the database holds.
    expect(JSON.stringify(read)).not.toContain("6006491000000001");
    expect(JSON.stringify(read)).toContain("600649******0001");

    const listed = (await store.list()).find((item) => item.id === run.id);
    expect(listed).toMatchObject({
      status: "done",
      environment: "embedded",
      operator: "Alice Tester",
      operator_id: "alice",
      total: 2,
      done: 2,
      summary: { pass: 2, fail: 0, observed: 0, not_applicable: 0 },
      verdicts: [
        { id: "GBI-01", verdict: "pass" },
        { id: "BI-01", verdict: "pass" },
      ],
    });
  });

  test("a running run whose heartbeat went stale is interrupted, and its process cannot write it again", async () => {
    const clock = manualClock();
    const owner = createDatabaseRunStore({ db: backend.handle.db, now: clock.now, staleAfterMs: 60_000 });
    const run = runOf(crypto.randomUUID(), "running", clock.now().toISOString());
    await owner.save(run);

    clock.advance(30_000);
    await owner.heartbeat([run.id]);
    clock.advance(59_000);
    // Another instance reading now: the heartbeat is 59 s old, the run is still alive.
    const reader = createDatabaseRunStore({ db: backend.handle.db, now: clock.now, staleAfterMs: 60_000 });
    expect((await reader.get(run.id))?.status).toBe("running");

    clock.advance(2_000);
    expect((await reader.get(run.id))?.status).toBe("interrupted");
    expect((await reader.list()).find((item) => item.id === run.id)?.status).toBe("interrupted");

    // The stalled owner wakes up and writes its progress: the run stays interrupted (never resumed).
    await owner.save({ ...run, done: 1 });
    const after = await reader.get(run.id);
    expect(after?.status).toBe("interrupted");
    expect(after?.done).toBe(0);
    expect(after?.finished_at).toBeDefined();
  });

  test("at a single-process start every active run is interrupted; ended runs are left alone", async () => {
    const store = createDatabaseRunStore({ db: backend.handle.db });
    const now = new Date().toISOString();
    const queued = runOf(crypto.randomUUID(), "queued", now);
    const running = runOf(crypto.randomUUID(), "running", now);
    const done = { ...runOf(crypto.randomUUID(), "done", now), finished_at: now };
    for (const run of [queued, running, done]) await store.save(run);
    expect(await store.interruptAllActive()).toBeGreaterThanOrEqual(2);
    expect((await store.get(queued.id))?.status).toBe("interrupted");
    expect((await store.get(running.id))?.status).toBe("interrupted");
    expect((await store.get(done.id))?.status).toBe("done");
  });

  test("the bundle of an ended run is kept once: the first stored is what every download gets", async () => {
    const store = createDatabaseRunStore({ db: backend.handle.db });
    const now = new Date().toISOString();
    const active = runOf(crypto.randomUUID(), "running", now);
    await store.save(active);
    await expect(
      store.saveBundle(active.id, { zip: new Uint8Array([1]), fileName: "x.zip" }),
    ).rejects.toThrow(/has not ended/);

    const ended = { ...runOf(crypto.randomUUID(), "done", now), finished_at: now };
    await store.save(ended);
    const key = await loadEvidenceSigningKey({ env: { EVIDENCE_SIGNING_KEY: generateEd25519Pem() } });
    const info = { name: "card-services-console", version: "0.0.0", commit: "test" };
    const specification = { file: "spec.md", sha256: "0".repeat(64), found_sha256: null };
    const first = await buildEvidenceBundle({ run: ended, key, console: info, specification });
    const second = await buildEvidenceBundle({
      run: { ...ended, operator: "someone else" },
      key,
      console: info,
      specification,
    });
    const kept = await store.saveBundle(ended.id, { zip: first.zip, fileName: first.fileName });
    const again = await store.saveBundle(ended.id, { zip: second.zip, fileName: "other.zip" });
    expect(Buffer.from(again.zip).equals(Buffer.from(first.zip))).toBe(true);
    expect(again.fileName).toBe(first.fileName);
    expect(Buffer.from(kept.zip).equals(Buffer.from(first.zip))).toBe(true);
    const stored = await store.getBundle(ended.id);
    expect(stored?.zip).toBeInstanceOf(Uint8Array);
    expect((await verifyEvidence(stored!.zip)).ok).toBe(true);
  });
});
