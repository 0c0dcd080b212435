/**
 * The background sweep (lib/server/root/sweep): a support batch whose instance died and that nobody opens is taken
 * over and finished; a certification run whose heartbeat went stale is marked interrupted without anyone
 * reading it. PGlite and PostgreSQL.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { createAuditLog } from "@/lib/server/audit";
import { batchBalanceInquiry } from "@/lib/server/inquiry/operations";
import { createDatabaseRunStore } from "@/lib/server/certification/db-run-store";
import type { RunState } from "@/lib/shared/certification-contract";
import { consoleRoot, setConfigForTests } from "@/lib/server/root";
import { certificationRuns } from "@/lib/server/database/schema";
import { sweepAbandonedWork } from "@/lib/server/root/sweep";
import { createBatchRunner, type BatchRunner } from "@/lib/server/support/batch-runner";
import { claimRunner, findBatch } from "@/lib/server/support/batch-store";
import { startBatch, type SupportBatchDeps } from "@/lib/server/support/batches";
import { createCardVault } from "@/lib/server/support/card-vault";
import { BACKENDS, useBackend } from "./backends";

const HMAC_KEY = "support-batch-test-hmac-key-0123456789";
const ACTOR = { userId: "sam", roles: ["support" as const], clientAddress: "127.0.0.1" };

beforeAll(() => {
  setConfigForTests({ SESSION_SECRET: "sweep-test-session-secret-0123456789abcdef", PORT: "3000" });
});

function run(id: string, startedAt: string): RunState {
  return {
    id,
    status: "running",
    environment: { name: "embedded", auth_url: "http://sandbox.test", base_url: "http://sandbox.test" },
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

describe.each(BACKENDS)("the sweep on %s", (kind) => {
  const backend = useBackend(kind);

  test("finishes a batch its dead instance left running, and interrupts a run with a stale heartbeat", async () => {
    const { db } = backend.handle;
    const auditLog = createAuditLog({ db, hmacKey: HMAC_KEY });
    const vault = createCardVault(HMAC_KEY);
    // The instance that started the batch died at once: it claimed it (a 30 s lease, 31 s ago) and ran nothing.
    const dead: BatchRunner = { ensureRunning: async () => {}, settled: async () => {}, wake: () => {} };
    const deps: SupportBatchDeps = { db, auditLog, hmacKey: HMAC_KEY, vault, runner: dead, maxCards: 100 };
    const batch = await startBatch(deps, {
      input: { cards: ["6006491000000001", "6006491000000019", "6006491000000027"] },
      actor: ACTOR,
      environment: "embedded",
      credentials: { kind: "demo" },
    });
    expect(await claimRunner(db, batch.id, new Date(Date.now() - 31_000), 30_000)).toBeDefined();

    const past = new Date(Date.now() - 120_000);
    const stalled = run(crypto.randomUUID(), past.toISOString());
    await createDatabaseRunStore({ db, now: () => past }).save(stalled);
    const alive = run(crypto.randomUUID(), new Date().toISOString());
    await createDatabaseRunStore({ db }).save(alive);

    const survivor = createBatchRunner({
      db,
      auditLog,
      vault,
      inquire: batchBalanceInquiry,
      callContext: consoleRoot().calls.fromState,
      concurrency: 2,
    });
    const result = await sweepAbandonedWork({ db, runner: survivor, runs: createDatabaseRunStore({ db }) });
    expect(result.resumed).toContain(batch.id);
    expect(result.interrupted).toBe(1);
    await survivor.settled(batch.id);
    expect(await findBatch(db, batch.id, new Date())).toMatchObject({ status: "done" });

    const statuses = await db
      .select({ id: certificationRuns.id, status: certificationRuns.status })
      .from(certificationRuns)
      .where(eq(certificationRuns.id, stalled.id));
    expect(statuses).toEqual([{ id: stalled.id, status: "interrupted" }]);
    const [stillRunning] = await db
      .select({ status: certificationRuns.status })
      .from(certificationRuns)
      .where(eq(certificationRuns.id, alive.id));
    expect(stillRunning?.status).toBe("running");

    // Nothing is left to sweep: a finished batch is not taken again.
    expect(
      (await sweepAbandonedWork({ db, runner: survivor, runs: createDatabaseRunStore({ db }) })).resumed,
    ).toEqual([]);
  });
});
