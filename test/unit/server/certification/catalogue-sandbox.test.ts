import { describe, expect, it } from "vitest";
import { CATALOGUE } from "@/lib/server/certification/catalogue";
import { certify, verdicts } from "./harness";

describe("the catalogue against the embedded sandbox", () => {
  it("passes every case (GBI-05 observed), with progress events and upstream ids", async () => {
    const { run, events } = await certify();
    const failures = run.results.filter((result) => result.verdict === "fail");
    expect(failures.map((result) => `${result.id}: ${result.reason}`)).toEqual([]);
    const expected = Object.fromEntries(CATALOGUE.map((item) => [item.id, "pass"]));
    expected["GBI-05"] = "observed";
    expected["TOK-07"] = "not_applicable";
    expect(verdicts(run)).toEqual(expected);
    expect(events.filter((event) => event.type === "case_finished")).toHaveLength(CATALOGUE.length);
    const gift = run.results.find((result) => result.id === "GBI-01")!;
    expect(gift.upstream_ids.transaction_ids).toHaveLength(1);
    expect(gift.upstream_ids.x_request_ids).toHaveLength(1);
    const tok = run.results.find((result) => result.id === "TOK-01")!;
    expect(tok.upstream_ids.meta_request_ids[0]).toMatch(/^req-\d+-/);
  });
});
