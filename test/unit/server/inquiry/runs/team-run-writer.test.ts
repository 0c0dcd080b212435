/**
 * The team-run writer: runs kept within its window go in one statement, a flush writes what waits at once (as
 * at shutdown), and a batch the database refuses is written again run by run, so only the bad run fails.
 */
import { describe, expect, it, vi } from "vitest";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import type { Database } from "@/lib/server/database";
import type { RecordRunInput } from "@/lib/server/inquiry/runs/store";
import { createTeamRunWriter } from "@/lib/server/inquiry/runs/writer";

const db = {} as Database;

function run(id: string): RecordRunInput {
  return {
    user: { id: "ada", name: "Ada" },
    operation: "balance_inquiry",
    card: "600649******0001",
    exchange: { id } as ExchangeRecord,
  };
}

describe("team-run writer", () => {
  it("writes the runs kept within its window in one statement", async () => {
    const statements: string[][] = [];
    const writer = createTeamRunWriter(db, async (_db, inputs) => {
      statements.push(inputs.map((input) => input.exchange.id));
    });

    vi.useFakeTimers();
    try {
      const kept = [writer.keep(run("r1"))];
      await vi.advanceTimersByTimeAsync(40);
      expect(statements).toEqual([]);
      kept.push(...["r2", "r3", "r4"].map((id) => writer.keep(run(id))));
      await vi.advanceTimersByTimeAsync(10);
      await Promise.all(kept);
    } finally {
      vi.useRealTimers();
    }

    expect(statements).toEqual([["r1", "r2", "r3", "r4"]]);
  });

  it("writes what waits at once when flushed, and runs kept during a write after it", async () => {
    const statements: string[][] = [];
    const late: Promise<void>[] = [];
    const writer = createTeamRunWriter(
      db,
      async (_db, inputs) => {
        statements.push(inputs.map((input) => input.exchange.id));
        if (late.length === 0) late.push(writer.keep(run("late")));
      },
      60_000,
    );

    const kept = Promise.all(["r1", "r2"].map((id) => writer.keep(run(id))));
    await writer.flush();

    expect(statements).toEqual([["r1", "r2"], ["late"]]);
    await expect(Promise.all([kept, ...late])).resolves.toBeDefined();
  });

  it("writes a refused batch again run by run: only the bad run fails", async () => {
    const kept: string[] = [];
    const writer = createTeamRunWriter(db, async (_db, inputs) => {
      if (inputs.some((input) => input.exchange.id === "bad")) throw new Error("refused");
      kept.push(...inputs.map((input) => input.exchange.id));
    });

    const results = await Promise.allSettled(["r1", "bad", "r2"].map((id) => writer.keep(run(id))));

    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(kept).toEqual(["r1", "r2"]);
  });
});
