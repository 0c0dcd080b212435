/**
 * The team-run writer: runs kept in one turn of the event loop go in one statement, and a batch the database
 * refuses is written again run by run, so only the bad run fails.
 */
import { describe, expect, it } from "vitest";
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
  it("writes the runs of one turn in one statement", async () => {
    const statements: string[][] = [];
    const keep = createTeamRunWriter(db, async (_db, inputs) => {
      statements.push(inputs.map((input) => input.exchange.id));
    });

    await Promise.all(["r1", "r2", "r3", "r4"].map((id) => keep(run(id))));

    expect(statements).toEqual([["r1", "r2", "r3", "r4"]]);
  });

  it("writes a refused batch again run by run: only the bad run fails", async () => {
    const kept: string[] = [];
    const keep = createTeamRunWriter(db, async (_db, inputs) => {
      if (inputs.some((input) => input.exchange.id === "bad")) throw new Error("refused");
      kept.push(...inputs.map((input) => input.exchange.id));
    });

    const results = await Promise.allSettled(["r1", "bad", "r2"].map((id) => keep(run(id))));

    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(kept).toEqual(["r1", "r2"]);
  });
});
