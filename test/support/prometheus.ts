/**
 * Reads a Prometheus text exposition with a real parser (parse-prometheus-text-format, a port of the Python
 * client's parser, prom2json's output), and finds one series in it.
 */
// @ts-expect-error -- the package ships no types; its output shape is declared below.
import parsePrometheusTextFormat from "parse-prometheus-text-format";

export interface MetricFamily {
  name: string;
  help: string;
  type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
  metrics: { value?: string; buckets?: Record<string, string>; labels?: Record<string, string> }[];
}

export function parseExposition(text: string): MetricFamily[] {
  return (parsePrometheusTextFormat as (text: string) => MetricFamily[])(text);
}

/** The value of the series `name` whose labels include `labels`; 0 when absent. */
export function sampleOf(
  families: MetricFamily[],
  name: string,
  labels: Record<string, string> = {},
): number {
  const family = families.find((candidate) => candidate.name === name);
  const metric = family?.metrics.find((candidate) =>
    Object.entries(labels).every(([key, value]) => candidate.labels?.[key] === value),
  );
  return Number(metric?.value ?? 0);
}

/** Observations in a histogram's +Inf bucket (this parser keeps one set of buckets per family, without labels). */
export function observationsOf(families: MetricFamily[], name: string): number {
  const family = families.find((candidate) => candidate.name === name);
  return Math.max(0, ...(family?.metrics ?? []).map((metric) => Number(metric.buckets?.["+Inf"] ?? 0)));
}
