/**
 * An upstream that answers every card 429 with `Retry-After: 3600` cannot hold a support batch for hours: the
 * runner waits at most 30 s per retry and gives each card 90 s across its attempts, then gives up on it and
 * says so in the results (status `rate_limited`, an error naming the give-up) and the CSV. A test clock; PGlite.
 */
import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { createAuditLog } from "@/lib/server/audit";
import { consoleRoot, setConfigForTests } from "@/lib/server/root";
import { queryRows } from "@/lib/server/database/rows";
import { createBatchRunner, type DetachedInquiry } from "@/lib/server/support/batch-runner";
import {
  ownedBatch,
  readBatch,
  resultsCsv,
  resultsPage,
  startBatch,
  type SupportBatchDeps,
} from "@/lib/server/support/batches";
import { createCardVault } from "@/lib/server/support/card-vault";
import { useBackend } from "../storage/backends";

const HMAC_KEY = "support-batch-test-hmac-key-0123456789";
const ACTOR = { userId: "sam", roles: ["support" as const], clientAddress: "127.0.0.1" };
const OWNER = { userId: "sam", roles: ["support"] };

beforeAll(() => {
  setConfigForTests({ SESSION_SECRET: "support-batch-test-session-secret-0123456789", PORT: "3000" });
});

/** The hostile upstream's answer: 429, come back in an hour. */
function busyRecord(): ExchangeRecord {
  return {
    id: crypto.randomUUID(),
    operation: "balance_inquiry",
    environment: "embedded",
    started_at: new Date().toISOString(),
    duration_ms: 1,
    request: { method: "POST", url: "http://127.0.0.1/", headers: {}, body: null },
    response: { status: 429, headers: { "retry-after": "3600" }, body: null },
    token_events: [],
  } as unknown as ExchangeRecord;
}

describe("a support batch against an upstream that always says 429, Retry-After: 3600", () => {
  const backend = useBackend("pglite");
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  test("waits at most 30 s per retry and gives up on each card within 90 s, reporting it", async () => {
    const { db } = backend.handle;
    let fakeNow = Date.now();
    const now = () => fakeNow;
    const callsAt: number[] = [];
    const hostile: DetachedInquiry = async () => {
      callsAt.push(fakeNow);
      return busyRecord();
    };
    const auditLog = createAuditLog({ db, hmacKey: HMAC_KEY });
    const runner = createBatchRunner({
      db,
      auditLog,
      vault: createCardVault(HMAC_KEY),
      inquire: hostile,
      callContext: consoleRoot().calls.fromState,
      concurrency: 1,
      now,
      cardLeaseMs: 3_600_000,
      runnerLeaseMs: 3_600_000,
      maxAttempts: 10,
    });
    const deps: SupportBatchDeps = {
      db,
      auditLog,
      hmacKey: HMAC_KEY,
      vault: createCardVault(HMAC_KEY),
      runner,
      maxCards: 10_000,
      now,
    };
    const started = await startBatch(deps, {
      input: { cards: ["6006491000000001"] },
      actor: ACTOR,
      environment: "embedded",
      credentials: { kind: "demo" },
    });
    stop = () => runner.wake(started.id);
    const startedAt = fakeNow;

    // Each time the runner has put the card back, let the clock run to the moment it asked for, and wake it.
    const cardState = async () =>
      (
        await queryRows<{ state: string; not_before: string | Date | null }>(
          db,
          sql`select state, not_before from support_batch_cards where batch_id = ${started.id}`,
        )
      )[0]!;
    for (let step = 0; step < 20; step += 1) {
      await expect
        .poll(async () => {
          const card = await cardState();
          return card.state === "failed" || (card.state === "pending" && card.not_before !== null);
        })
        .toBe(true);
      const card = await cardState();
      if (card.state === "failed") break;
      const calls = callsAt.length;
      fakeNow = Math.max(fakeNow, new Date(card.not_before!).getTime());
      await expect
        .poll(() => {
          runner.wake(started.id);
          return callsAt.length > calls;
        })
        .toBe(true);
    }
    await runner.settled(started.id);

    const progress = await readBatch(deps, started.id, OWNER);
    expect(progress).toMatchObject({ status: "done", done: 1, failed: 1 });
    // Never longer than 30 s between attempts, and the card was given up on within its 90 s.
    for (let index = 1; index < callsAt.length; index += 1) {
      expect(callsAt[index]! - callsAt[index - 1]!).toBeLessThanOrEqual(30_000);
    }
    expect(callsAt.at(-1)! - startedAt).toBeLessThanOrEqual(90_000);
    expect(callsAt.length).toBeGreaterThanOrEqual(2);

    const batch = await ownedBatch(deps, started.id, OWNER);
    const { rows } = await resultsPage(deps, batch, 0, 10);
    expect(rows[0]).toMatchObject({ outcome: "rate_limited" });
    expect(rows[0]!.error).toMatch(/gave up/i);
    const csv = await new Response(resultsCsv(deps, batch)).text();
    expect(csv.split("\r\n")[1]).toMatch(/rate_limited,.*gave up/i);
  });
});
