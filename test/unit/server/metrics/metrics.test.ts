/**
 * The console's metrics: the series exist, move where the events happen, and come out in a form a real
 * Prometheus text parser reads.
 */
import { describe, expect, it } from "vitest";
import type { Transport } from "@/lib/server/card-api/transport";
import { configuredMetricsToken, hasMetricsToken } from "@/lib/server/metrics/access";
import { createMetrics, methodLabel, routeLabel, segmentName, statusLabel } from "@/lib/server/metrics";
import { CATCH_ALL, ROUTES } from "@/lib/server/routes";
import { metricsResponse } from "@/lib/server/metrics/scrape";
import { meteredTransport } from "@/lib/server/metrics/upstream";
import type { ServerConfig } from "@/lib/server/config";
import { observationsOf, parseExposition, sampleOf } from "../../../support/prometheus";

const answering =
  (status: number): Transport =>
  async () => ({ status, headers: {}, body: "{}", truncated: false });

describe("console metrics", () => {
  it("counts upstream calls by operation, environment and status, with a latency histogram", async () => {
    const metrics = createMetrics();
    const upstream = meteredTransport(answering(200), "embedded", metrics);
    const request = { method: "POST" as const, headers: {}, signal: new AbortController().signal };
    await upstream({ ...request, url: "http://localhost/sandbox/transaction/v1/balance-inquiry" });
    await upstream({ ...request, url: "http://localhost/sandbox/transaction/v1/balance-inquiry" });
    await upstream({ ...request, url: "http://localhost/sandbox/reporting/v1/auth/token" });
    const refused = meteredTransport(
      async () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })),
      "sandbox",
      metrics,
    );
    await expect(
      refused({ ...request, url: "https://api.test/transaction/v1/gift/balance-inquiry" }),
    ).rejects.toThrow();

    const families = parseExposition(await metrics.registry.metrics());
    const balance = { operation: "balance_inquiry", environment: "embedded", status: "200" };
    expect(sampleOf(families, "console_upstream_calls_total", balance)).toBe(2);
    expect(
      sampleOf(families, "console_token_requests_total", { environment: "embedded", status: "200" }),
    ).toBe(1);
    expect(
      sampleOf(families, "console_upstream_calls_total", {
        operation: "gift_balance_inquiry",
        environment: "sandbox",
        status: "refused",
      }),
    ).toBe(1);
    const histogram = families.find((family) => family.name === "console_upstream_call_duration_seconds");
    expect(histogram?.type).toBe("HISTOGRAM");
    // The parser folds a histogram's labelled series into one set of buckets: it shows that observations arrived.
    expect(observationsOf(families, "console_upstream_call_duration_seconds")).toBeGreaterThan(0);
  });

  it("declares every series docs/operations/metrics.md describes", async () => {
    const names = parseExposition(await createMetrics().registry.metrics()).map((family) => family.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "console_http_requests_total",
        "console_upstream_calls_total",
        "console_upstream_call_duration_seconds",
        "console_token_requests_total",
        "console_rate_limit_refusals_total",
        "console_batch_cards_total",
        "console_batch_queue_depth",
        "console_certification_runs_total",
        "console_audit_rows_total",
        "console_db_pool_connections",
        "console_process_process_cpu_seconds_total",
      ]),
    );
  });

  it("labels routes by the catalogue template they were served under: ids as :id, the catch-all as one label", () => {
    expect(routeLabel("/api/certification/runs/[id]/evidence")).toBe("/api/certification/runs/:id/evidence");
    expect(routeLabel("/api/transactions/request-id/[id]")).toBe("/api/transactions/request-id/:id");
    expect(routeLabel("/api/certification/runs/[id]/exchanges/[exchangeId]")).toBe(
      "/api/certification/runs/:id/exchanges/:exchangeId",
    );
    expect(routeLabel("/api/inquiries/gift-balance")).toBe("/api/inquiries/gift-balance");
    expect(routeLabel(CATCH_ALL)).toBe("unknown");
    // One series per route at most, whatever callers send: the labels are the catalogue's, each its own.
    const labels = Object.keys(ROUTES).map(routeLabel);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.filter((label) => /[[\]{}]/.test(label))).toEqual([]);
  });

  it("names a bad path segment by the parameter it stands for in the template", () => {
    expect(segmentName("/api/runs/[id]", 3)).toBe("id");
    expect(segmentName("/api/runs/[id]", 2)).toBe("(path)");
    expect(segmentName(CATCH_ALL, 4)).toBe("(path)");
  });

  it("labels methods and statuses from a fixed set", () => {
    expect(["GET", "POST", "DELETE", "OPTIONS", "HEAD"].map(methodLabel)).toEqual([
      "GET",
      "POST",
      "DELETE",
      "OPTIONS",
      "HEAD",
    ]);
    expect(["PROPFIND", "MKCOL", "get", "X".repeat(100)].map(methodLabel)).toEqual([
      "other",
      "other",
      "other",
      "other",
    ]);
    expect([200, 404, 599].map(statusLabel)).toEqual(["200", "404", "599"]);
    expect([0, 99, 600, 1e9, 200.5, Number.NaN].map(statusLabel)).toEqual(Array(6).fill("other"));
  });

  it("accepts only the configured bearer token, and refuses a short one", () => {
    const token = "a-metrics-token-long-enough";
    const asked = (authorization?: string) =>
      new Request("http://localhost/api/metrics", authorization ? { headers: { authorization } } : {});
    expect(hasMetricsToken(asked(`Bearer ${token}`), token)).toBe(true);
    expect(hasMetricsToken(asked("Bearer wrong-token-of-some-length"), token)).toBe(false);
    expect(hasMetricsToken(asked(), token)).toBe(false);
    expect(hasMetricsToken(asked(`Bearer ${token}`), undefined)).toBe(false);
    expect(configuredMetricsToken({ METRICS_TOKEN: token } as unknown as NodeJS.ProcessEnv)).toBe(token);
    expect(() =>
      configuredMetricsToken({ METRICS_TOKEN: "short" } as unknown as NodeJS.ProcessEnv),
    ).toThrow();
  });

  it("still answers the counters when the database does not", async () => {
    const metrics = createMetrics();
    metrics.requests.inc({ route: "/api/health", method: "GET", status: "200" });
    const config = { databaseUrl: undefined } as unknown as ServerConfig;
    const response = await metricsResponse(() => Promise.reject(new Error("database down")), config, metrics);
    expect(response.status).toBe(200);
    const families = parseExposition(await response.text());
    expect(sampleOf(families, "console_http_requests_total", { route: "/api/health" })).toBe(1);
  });
});
