import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { alertBody, signature } from "@/lib/server/monitors/alert";
import {
  alertFor,
  DELIVERY_GIVE_UP_MS,
  isLate,
  nextAttempt,
  nextRunAfter,
  stateAfter,
} from "@/lib/server/monitors/schedule";
import type { MonitorRunView } from "@/lib/shared/monitors-api";
import { casesThatBroke } from "@/lib/shared/monitor-rules";

const at = (iso: string) => new Date(iso);

describe("a monitor's schedule", () => {
  it("is due one period after the start of its last scheduled run", () => {
    expect(nextRunAfter(at("2026-01-01T10:00:07Z"), 15)).toEqual(at("2026-01-01T10:15:07Z"));
    expect(nextRunAfter(at("2026-01-01T10:00:00Z"), 10_080)).toEqual(at("2026-01-08T10:00:00Z"));
  });

  it("calls a run late only when its time was missed by more than a minute, not when picked up a tick late", () => {
    expect(isLate(at("2026-01-01T10:00:00Z"), at("2026-01-01T10:00:05Z"))).toBe(false);
    expect(isLate(at("2026-01-01T10:00:00Z"), at("2026-01-01T10:01:00Z"))).toBe(false);
    expect(isLate(at("2026-01-01T10:00:00Z"), at("2026-01-01T13:00:00Z"))).toBe(true);
  });
});

describe("state changes and alerts", () => {
  it("a run passes only when it ended on its own with no failed case; one that could not finish fails", () => {
    expect(stateAfter({ status: "done", failed: 0 })).toBe("passing");
    expect(stateAfter({ status: "done", failed: 1 })).toBe("failing");
    expect(stateAfter({ status: "interrupted", failed: 0 })).toBe("failing");
    expect(stateAfter({ status: "broken", failed: 0 })).toBe("failing");
  });

  it("the first run alerts only when it fails; a change alerts once; no change, no alert", () => {
    expect(alertFor("unknown", "passing")).toBeNull();
    expect(alertFor("unknown", "failing")).toBe("monitor_failing");
    expect(alertFor("passing", "failing")).toBe("monitor_failing");
    expect(alertFor("failing", "failing")).toBeNull();
    expect(alertFor("failing", "passing")).toBe("monitor_recovered");
    expect(alertFor("passing", "passing")).toBeNull();
  });

  it("a failed delivery is retried with growing delays for an hour, then given up", () => {
    const created = at("2026-01-01T10:00:00Z");
    const first = nextAttempt(created, 1, created);
    const second = nextAttempt(created, 2, created);
    expect(first && first.getTime() - created.getTime()).toBe(15_000);
    expect(second && second.getTime() - created.getTime()).toBe(30_000);
    expect(nextAttempt(created, 20, new Date(created.getTime() + DELIVERY_GIVE_UP_MS - 1000))).toBeNull();
  });
});

describe("the alert", () => {
  const input = {
    event: "monitor_failing" as const,
    monitor: { id: "m1", name: "Nightly\nsandbox", environment: "embedded" as const },
    run: { id: "r1", status: "done", passed: 20, failed: 2, failed_cases: ["BI-01", "GBI-02"] },
    publicOrigin: "https://console.example.com",
  };

  it("links the run's page absolutely and says it all on one line", () => {
    const body = alertBody(input);
    expect(body.run.url).toBe("https://console.example.com/certification/runs/r1");
    expect(body.text).not.toMatch(/\n/);
    expect(body.text).toBe(
      'Monitor "Nightly sandbox" on embedded is failing: 20 passed, 2 failed (BI-01, GBI-02). ' +
        "https://console.example.com/certification/runs/r1",
    );
    expect(body).toMatchObject({ event: "monitor_failing", monitor: input.monitor, run: input.run });
  });

  it("is signed with HMAC-SHA-256 of the exact body", () => {
    const body = JSON.stringify(alertBody(input));
    const expected = createHmac("sha256", "a-secret-of-16-chars").update(body).digest("hex");
    expect(signature(body, "a-secret-of-16-chars")).toBe(`sha256=${expected}`);
  });
});

describe("the cases that changed", () => {
  const run = (id: string, failed: string[], status = "done"): MonitorRunView => ({
    id,
    status,
    passed: 5,
    failed: failed.length,
    failed_cases: failed,
    started_at: "",
    finished_at: null,
    scheduled: true,
    late: false,
  });

  it("are the first bad run's failures after the last good run (runs newest first)", () => {
    const runs = [run("r4", ["BI-01", "GBI-02"]), run("r3", ["BI-01"]), run("r2", []), run("r1", ["TOK-01"])];
    expect(casesThatBroke(runs)).toEqual({ good: "r2", bad: "r3", cases: ["BI-01"] });
    expect(casesThatBroke([run("r2", []), run("r1", [])])).toBeNull();
  });
});
