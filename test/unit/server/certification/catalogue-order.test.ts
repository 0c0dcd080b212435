import { describe, expect, it } from "vitest";
import { consoleInfo, specificationInfo } from "@/lib/server/certification/build-info";
import { describeCatalogue } from "@/lib/server/certification/catalogue";
import { buildReportHtml } from "@/lib/server/certification/evidence/report-html";
import {
  compareCaseIds,
  inCatalogueOrder,
  type CaseResult,
  type RunState,
} from "@/lib/shared/certification-contract";

const runOrder = describeCatalogue();

function result(info: (typeof runOrder)[number]): CaseResult {
  const empty = { transaction_ids: [], external_ids: [], x_request_ids: [], meta_request_ids: [] };
  const at = "2026-01-01T00:00:00.000Z";
  return {
    ...info,
    verdict: "pass",
    checks: [],
    exchange_ids: [],
    upstream_ids: empty,
    token_fingerprints: [],
    started_at: at,
    finished_at: at,
  };
}

describe("cases in catalogue order", () => {
  it("lists TOK-09 after TOK-08 although it runs last, groups in the catalogue's order, numbers as numbers", () => {
    const ids = runOrder.map((item) => item.id);
    expect(ids.at(-1)).toBe("TOK-09");
    const listed = [...ids].sort(compareCaseIds);
    expect(listed.indexOf("TOK-09")).toBe(listed.indexOf("TOK-08") + 1);
    expect(listed.slice(0, 10)).toEqual([
      "TOK-01",
      "TOK-02",
      "TOK-03",
      "TOK-04",
      "TOK-05",
      "TOK-06",
      "TOK-07",
      "TOK-08",
      "TOK-09",
      "AUTH-01",
    ]);
    expect(listed.at(-1)).toBe("VER-01");
    expect(["BI-01", "GBI-01", "AUTH-01", "TOK-01"].sort(compareCaseIds)).toEqual([
      "TOK-01",
      "AUTH-01",
      "GBI-01",
      "BI-01",
    ]);
    expect(["TOK-10", "TOK-9", "TOK-02"].sort(compareCaseIds)).toEqual(["TOK-02", "TOK-9", "TOK-10"]);
    expect(
      inCatalogueOrder([{ id: "TOK-09" }, { id: "VER-01" }, { id: "TOK-01" }]).map((item) => item.id),
    ).toEqual(["TOK-01", "TOK-09", "VER-01"]);
  });

  it("report.html lists a run's cases in catalogue order, not the order they ran", () => {
    const run: RunState = {
      id: "run-1",
      status: "done",
      environment: { name: "embedded", auth_url: "http://a.test", base_url: "http://b.test" },
      client_id: "demo-client",
      operator: "tester",
      allow_production_gift: false,
      case_ids: runOrder.map((item) => item.id),
      total: runOrder.length,
      done: runOrder.length,
      started_at: "2026-01-01T00:00:00.000Z",
      results: runOrder.map(result),
      exchanges: [],
      tokens: [],
    };
    const html = buildReportHtml(run, {
      console: consoleInfo(),
      specification: specificationInfo(),
      kid: "k",
    });
    const rowOrder = [...html.matchAll(/<td class="id"[^>]*><a href="#([A-Z]+-\d+)">/g)].map(
      (match) => match[1],
    );
    expect(rowOrder.indexOf("TOK-09")).toBe(rowOrder.indexOf("TOK-08") + 1);
    const sectionOrder = [...html.matchAll(/<section class="case" id="([A-Z]+-\d+)">/g)].map(
      (match) => match[1],
    );
    expect(sectionOrder).toEqual(rowOrder);
    expect(rowOrder).toHaveLength(runOrder.length);
  });
});
