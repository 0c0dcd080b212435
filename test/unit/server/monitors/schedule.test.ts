import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { alertBody, type AlertInput } from "@/lib/server/monitors/alert";
import { afterRun, isLate, nextAttempt, nextRunAfter, type AlertState } from "@/lib/server/monitors/schedule";
import { alertHeaders, alertSigners } from "@/lib/server/monitors/signing";
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

const PASS = { status: "done", failed: 0 };
const FAIL = { status: "done", failed: 1 };

/** Replays run outcomes through the rule; answers each run's alert (null: none) and the final state. */
function replay(timeline: readonly boolean[], alertAfter: number) {
  let current: AlertState = { state: "unknown", failingRuns: 0 };
  const alerts: { run: number; alert: string }[] = [];
  timeline.forEach((passed, run) => {
    const next = afterRun(current, passed ? PASS : FAIL, alertAfter);
    if (next.alert) alerts.push({ run, alert: next.alert });
    current = next;
  });
  return { alerts, state: current.state };
}

describe("state changes and alerts", () => {
  it("a run passes only when it ended on its own with no failed case; one that could not finish fails", () => {
    const unknown: AlertState = { state: "unknown", failingRuns: 0 };
    expect(afterRun(unknown, PASS, 1).state).toBe("passing");
    expect(afterRun(unknown, FAIL, 1).state).toBe("failing");
    expect(afterRun(unknown, { status: "interrupted", failed: 0 }, 1).state).toBe("failing");
    expect(afterRun(unknown, { status: "broken", failed: 0 }, 1).state).toBe("failing");
  });

  it("the first run alerts only when it fails; a change alerts once; no change, no alert", () => {
    expect(replay([true], 1).alerts).toEqual([]);
    expect(replay([false], 1).alerts).toEqual([{ run: 0, alert: "monitor.failing" }]);
    expect(replay([true, false, false, false, true, true], 1).alerts).toEqual([
      { run: 1, alert: "monitor.failing" },
      { run: 4, alert: "monitor.recovered" },
    ]);
  });

  // A case that fails one run in three for a day of hourly runs (the last one passing), then a real outage.
  const flaky = Array.from({ length: 25 }, (_, run) => run % 3 !== 2);
  const outage = [...flaky, ...Array.from({ length: 10 }, () => false)];

  it("a case failing one run in three pages nobody with alert_after_failures 2 or more (and does with 1)", () => {
    for (let alertAfter = 2; alertAfter <= 10; alertAfter += 1) {
      expect(replay(flaky, alertAfter), `alert_after_failures ${alertAfter}`).toEqual({
        alerts: [],
        state: "passing",
      });
    }
    // The same timeline with 1 alerts on every flake: what the setting is for.
    expect(replay(flaky, 1).alerts).toHaveLength(16);
  });

  it("a real outage after the flakes is alerted within alert_after_failures runs, once, and recovers once", () => {
    const outageStart = flaky.length;
    for (let alertAfter = 2; alertAfter <= 10; alertAfter += 1) {
      const { alerts } = replay([...outage, true], alertAfter);
      expect(alerts, `alert_after_failures ${alertAfter}`).toEqual([
        { run: outageStart + alertAfter - 1, alert: "monitor.failing" },
        { run: outage.length, alert: "monitor.recovered" },
      ]);
    }
  });

  it("a failed delivery is tried at about 0, 1, 5, 15 and 40 minutes, then given up within the hour", () => {
    const made = at("2026-01-01T10:00:00Z");
    const offsets = [1, 2, 3, 4].map((attempts) => {
      const next = nextAttempt(made, attempts, made);
      return next && (next.getTime() - made.getTime()) / 60_000;
    });
    expect(offsets).toEqual([1, 5, 15, 40]);
    expect(nextAttempt(made, 5, at("2026-01-01T10:40:10Z"))).toBeNull();
    // An attempt overdue (every instance was down) is made at once, not in the past.
    const late = at("2026-01-01T11:00:00Z");
    expect(nextAttempt(made, 2, late)).toEqual(late);
  });
});

describe("the alert", () => {
  const input: AlertInput = {
    type: "monitor.failing",
    at: at("2026-01-01T10:00:00Z"),
    monitor: { id: "m1", name: "Nightly\nsandbox", environment: "embedded" },
    run: { id: "r1", status: "done", passed: 20, failed: 2, failed_cases: ["BI-01", "GBI-02"] },
    publicOrigin: "https://console.example.com",
  };

  it("is {type, timestamp, data: {monitor, run, text}}, linking the run's page absolutely, on one line", () => {
    const body = alertBody(input);
    expect(body).toEqual({
      type: "monitor.failing",
      timestamp: "2026-01-01T10:00:00.000Z",
      data: {
        monitor: input.monitor,
        run: { ...input.run, url: "https://console.example.com/certification/runs/r1" },
        text:
          'Monitor "Nightly sandbox" on embedded is failing: 20 passed, 2 failed (BI-01, GBI-02). ' +
          "https://console.example.com/certification/runs/r1",
      },
    });
  });

  it("says how many runs in a row failed when it waited for more than one", () => {
    expect(alertBody({ ...input, failingRuns: 3 }).data.text).toMatch(/is failing \(3 runs in a row\)/);
  });

  it("shows a hostile name as inert text in Slack and Teams: escaped, no mention, no link, card masked", () => {
    const name =
      "<!channel> @here @channel <@U024BE7LH> <https://evil.example|Reset> [pay](https://evil.example) & 6006491000000001";
    const { data } = alertBody({ ...input, monitor: { ...input.monitor!, name } });
    const { text } = data;
    // Slack's control sequences all start with "<": none is left unescaped.
    expect(text).not.toMatch(/[<>]/);
    expect(text).not.toMatch(/&(?!amp;|lt;|gt;)/);
    expect(text).toContain("&lt;!channel&gt;");
    expect(text).toContain("&amp;");
    expect(text).not.toMatch(/@(here|channel|everyone|U\w+)/);
    // Neither a Markdown link (Teams) nor a bare address a client would link.
    expect(text).not.toMatch(/\]\(|https?:\/\/evil/);
    expect(text).not.toContain("6006491000000001");
    expect(text).toContain("600649******0001");
    // The JSON name is masked too; the rest of it is data, not chat text.
    expect(data.monitor?.name).not.toContain("6006491000000001");
    // The console's own link stays a link.
    expect(text).toMatch(/ https:\/\/console\.example\.com\/certification\/runs\/r1$/);
  });

  it("a test alert names the monitor and no run", () => {
    const { type, data } = alertBody({ ...input, type: "monitor.test", run: null });
    expect(type).toBe("monitor.test");
    expect(data.run).toBeNull();
    expect(data.text).toBe('Test alert: Monitor "Nightly sandbox" on embedded can reach this receiver.');
  });
});

describe("the signature (Standard Webhooks)", () => {
  const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
  const previous = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;
  const body = JSON.stringify({ type: "monitor.test", timestamp: "2026-01-01T10:00:00.000Z", data: {} });

  it("verifies with the reference verifier, under the current and, during a rotation, the previous secret", () => {
    const headers = alertHeaders("d-1", body, new Date(), alertSigners([secret, previous]));
    expect(headers["webhook-id"]).toBe("d-1");
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=* v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(body, headers),
    ).toThrow(/No matching signature/);
  });

  it("covers the id, the timestamp and the body: a change to any fails", () => {
    const headers = alertHeaders("d-1", body, new Date(), alertSigners([secret]));
    const verifier = new Webhook(secret);
    expect(() => verifier.verify(`${body} `, headers)).toThrow();
    expect(() => verifier.verify(body, { ...headers, "webhook-id": "d-2" })).toThrow();
    const moved = String(Number(headers["webhook-timestamp"]) - 1);
    expect(() => verifier.verify(body, { ...headers, "webhook-timestamp": moved })).toThrow();
  });

  it("a replay more than 5 minutes old is rejected by the reference verifier", () => {
    const captured = alertHeaders(
      "d-1",
      body,
      new Date(Date.now() - 5 * 60_000 - 5_000),
      alertSigners([secret]),
    );
    expect(() => new Webhook(secret).verify(body, captured)).toThrow(/too old/);
    const fresh = alertHeaders("d-1", body, new Date(Date.now() - 4 * 60_000), alertSigners([secret]));
    expect(() => new Webhook(secret).verify(body, fresh)).not.toThrow();
  });

  it("is left out without a secret; the id and timestamp are still sent", () => {
    const headers = alertHeaders("d-1", body, new Date(), alertSigners([undefined, undefined]));
    expect(headers["webhook-signature"]).toBeUndefined();
    expect(headers["webhook-id"]).toBe("d-1");
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
