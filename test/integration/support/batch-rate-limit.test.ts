/**
 * A support batch spends its owner's RATE_LIMIT_PER_MINUTE like single lookups do (one budget per user, shared
 * with the route wrapper): when it is used up the batch pauses and goes on in the next window; no card fails for
 * it and none is sent twice. A test clock stands for the minutes; PGlite and PostgreSQL.
 */
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { createAuditLog } from "@/lib/server/audit";
import { batchBalanceInquiry } from "@/lib/server/inquiry/operations";
import { consoleRoot, setConfigForTests } from "@/lib/server/root";
import { createRateLimiter, spendUpstreamCall } from "@/lib/server/http/rate-limit";
import { createBatchRunner, type DetachedInquiry } from "@/lib/server/support/batch-runner";
import { readBatch, startBatch, type SupportBatchDeps } from "@/lib/server/support/batches";
import { createCardVault } from "@/lib/server/support/card-vault";
import { ApiError } from "@/lib/server/util/errors";
import { BACKENDS, useBackend } from "../storage/backends";

const HMAC_KEY = "support-batch-test-hmac-key-0123456789";
const ACTOR = { userId: "sam", roles: ["support" as const], clientAddress: "127.0.0.1" };
const OWNER = { userId: "sam", roles: ["support"] };
const LIMIT = 5;
const CARDS = Array.from({ length: 12 }, () => "6006491000000001");

beforeAll(() => {
  setConfigForTests({ SESSION_SECRET: "support-batch-test-session-secret-0123456789", PORT: "3000" });
});

describe.each(BACKENDS)("a support batch under the per-user rate limit on %s", (kind) => {
  const backend = useBackend(kind);
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  test("pauses when the user's budget is spent and finishes in later windows, every card found once", async () => {
    const { db } = backend.handle;
    // Minutes pass only when the test says so: at the start of a window aligned to the minute.
    let fakeNow = Math.ceil(Date.now() / 60_000) * 60_000;
    const now = () => fakeNow;
    const limiter = createRateLimiter({ db, now: () => new Date(fakeNow) });
    let refusedAt: number | undefined;
    const callsPerWindow = new Map<number, number>();
    const counting: DetachedInquiry = async (source, input) => {
      const window = Math.floor(fakeNow / 60_000);
      callsPerWindow.set(window, (callsPerWindow.get(window) ?? 0) + 1);
      return batchBalanceInquiry(source, input);
    };
    const auditLog = createAuditLog({ db, hmacKey: HMAC_KEY });
    const runner = createBatchRunner({
      db,
      auditLog,
      vault: createCardVault(HMAC_KEY),
      inquire: counting,
      callContext: consoleRoot().calls.fromState,
      concurrency: 4,
      now,
      // The test clock stands still during calls: no lease may lapse on it.
      cardLeaseMs: 3_600_000,
      runnerLeaseMs: 3_600_000,
      beforeCall: async (actor) => {
        try {
          await spendUpstreamCall(limiter, actor.userId, LIMIT);
        } catch (error) {
          if (error instanceof ApiError && error.code === "rate_limited") refusedAt = fakeNow;
          throw error;
        }
      },
    });
    const support: SupportBatchDeps = {
      db,
      auditLog,
      hmacKey: HMAC_KEY,
      vault: createCardVault(HMAC_KEY),
      runner,
      maxCards: 10_000,
      now,
    };
    const started = await startBatch(support, {
      input: { cards: CARDS },
      actor: ACTOR,
      environment: "embedded",
      credentials: { kind: "demo" },
    });
    stop = () => runner.wake(started.id);

    let pauses = 0;
    for (;;) {
      // Wait until the batch is done or has paused in this window, then let a minute pass.
      await expect
        .poll(
          async () =>
            refusedAt === fakeNow || (await readBatch(support, started.id, OWNER)).status === "done",
        )
        .toBe(true);
      const progress = await readBatch(support, started.id, OWNER);
      if (progress.status === "done") break;
      expect(progress).toMatchObject({ status: "running", failed: 0 });
      pauses += 1;
      fakeNow += 60_000;
      runner.wake(started.id);
    }
    await runner.settled(started.id);

    expect(pauses).toBe(2);
    expect(await readBatch(support, started.id, OWNER)).toMatchObject({
      status: "done",
      done: 12,
      failed: 0,
    });
    expect([...callsPerWindow.values()]).toEqual([5, 5, 2]);
    // The next single lookup of this user in the last window shares the budget the batch spent.
    await spendUpstreamCall(limiter, "sam", LIMIT);
    await spendUpstreamCall(limiter, "sam", LIMIT);
    await spendUpstreamCall(limiter, "sam", LIMIT);
    await expect(spendUpstreamCall(limiter, "sam", LIMIT)).rejects.toMatchObject({ code: "rate_limited" });
  });
});
