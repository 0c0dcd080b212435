import { describe, expect, it } from "vitest";
import type { RunState } from "@/lib/shared/certification-contract";
import { certify } from "../server/certification/harness";

describe("a case that waits", () => {
  it("AUTH-03 tells the run what it waits for and until when, and clears it when the wait ends", async () => {
    const saves: RunState[] = [];
    const { run } = await certify({ caseIds: ["AUTH-03"], onSave: (saved) => saves.push(saved) });
    const waiting = saves.filter((saved) => saved.waiting);
    expect(waiting.length).toBeGreaterThan(0);
    const wait = waiting[0]!.waiting!;
    expect(wait).toMatchObject({ case_id: "AUTH-03", what: "token_expiry" });
    // demo-short-lived's token lives 60 s; the case waits a little past it.
    const seconds = (Date.parse(wait.until) - Date.parse(waiting[0]!.started_at)) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(60);
    expect(seconds).toBeLessThan(70);
    expect(saves.at(-1)!.waiting).toBeUndefined();
    expect(run.waiting).toBeUndefined();
    expect(run.results[0]!.verdict).toBe("pass");
  });
});
