/**
 * The team's inquiry runs on the server (lib/server/inquiry/runs/store): recorded as the caller received them, found
 * by Request Id, user and operation, read one by id, and pruned by the background sweep past their retention.
 * PGlite and PostgreSQL.
 */
import { describe, expect, test } from "vitest";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { createDatabaseRunStore } from "@/lib/server/certification/db-run-store";
import { getTeamRun, listTeamRuns, recordTeamRun } from "@/lib/server/inquiry/runs/store";
import { sweepAbandonedWork } from "@/lib/server/root/sweep";
import { BACKENDS, useBackend } from "./backends";

function exchange(id: string, requestId: string | undefined, startedAt: string): ExchangeRecord {
  return {
    id,
    operation: requestId ? "gift_balance_inquiry" : "balance_inquiry",
    environment: "embedded",
    started_at: startedAt,
    duration_ms: 12,
    ...(requestId ? { request_id: requestId } : {}),
    request: {
      method: "POST",
      url: "http://localhost:3000/sandbox/transaction/v1/balance-inquiry",
      headers: { authorization: "Bearer [redacted]" },
      body: { data: { card: { number: "600649******0001" } } },
    },
    response: { status: requestId ? 201 : 200, headers: {}, body: { data: { status: "approved" } } },
    token_events: [],
  } as unknown as ExchangeRecord;
}

const never = { ensureRunning: async () => undefined };

describe.each(BACKENDS)("team runs on %s", (kind) => {
  const backend = useBackend(kind);

  test("records, searches by Request Id, user and operation, and reads one with its exchange", async () => {
    const { db } = backend.handle;
    const ada = { id: "ada-sub", name: "Ada Lovelace" };
    const bob = { id: "bob-sub", name: "Bob Builder" };
    const gift = exchange("run-1", "req-0001", "2026-11-20T10:00:00.000Z");
    await recordTeamRun(db, {
      user: ada,
      operation: "gift_balance_inquiry",
      card: "600649******0001",
      exchange: gift,
    });
    await recordTeamRun(db, {
      user: bob,
      operation: "balance_inquiry",
      card: "600649******0001",
      exchange: exchange("run-2", undefined, "2026-11-20T11:00:00.000Z"),
    });
    // The same exchange twice (a retried insert) is kept once.
    await recordTeamRun(db, { user: ada, operation: "gift_balance_inquiry", card: null, exchange: gift });

    expect((await listTeamRuns(db)).map((run) => run.id)).toEqual(["run-2", "run-1"]);
    expect((await listTeamRuns(db, { requestId: "req-0001" })).map((run) => run.user_name)).toEqual([
      "Ada Lovelace",
    ]);
    expect((await listTeamRuns(db, { requestId: "req-9999" })).length).toBe(0);
    expect((await listTeamRuns(db, { user: "bob" })).map((run) => run.id)).toEqual(["run-2"]);
    expect((await listTeamRuns(db, { user: "ada-sub" })).map((run) => run.id)).toEqual(["run-1"]);
    expect((await listTeamRuns(db, { user: "%" })).length).toBe(0);
    expect((await listTeamRuns(db, { operation: "balance_inquiry" })).map((run) => run.id)).toEqual([
      "run-2",
    ]);

    const one = await getTeamRun(db, "run-1");
    expect(one).toMatchObject({
      user_id: "ada-sub",
      request_id: "req-0001",
      status: 201,
      card: "600649******0001",
    });
    expect(one?.exchange).toEqual(gift);
    expect(await getTeamRun(db, "missing")).toBeNull();
  });

  test("the background sweep deletes runs older than RUNS_RETENTION_DAYS, and only those", async () => {
    const { db } = backend.handle;
    const now = Date.parse("2026-11-24T00:00:00.000Z");
    const user = { id: "cy", name: "Cy" };
    const at = (days: number) => new Date(now - days * 86_400_000);
    for (const [id, days] of [
      ["old", 31],
      ["recent", 29],
    ] as const) {
      await recordTeamRun(db, {
        user,
        operation: "balance_inquiry",
        card: null,
        exchange: exchange(id, undefined, at(days).toISOString()),
        now: at(days),
      });
    }
    const runs = createDatabaseRunStore({ db });
    const result = await sweepAbandonedWork({
      db,
      runner: never,
      runs,
      teamRunsRetentionDays: 30,
      now: () => now,
    });
    expect(result.pruned).toBeGreaterThanOrEqual(1);
    expect(await getTeamRun(db, "old")).toBeNull();
    expect(await getTeamRun(db, "recent")).not.toBeNull();
  });
});
