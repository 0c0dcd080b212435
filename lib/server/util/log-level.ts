/**
 * LOG_LEVEL, read on its own: the logger starts before the rest of the configuration (which logs), so it
 * cannot wait for it. An invalid value is reported by the full configuration at start.
 */
import { z } from "zod";
import { blankToUndefined } from "@/lib/shared/env-values";

const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const logLevelSchema = z.preprocess(
  (value) => (typeof blankToUndefined(value) === "string" ? String(value).trim().toLowerCase() : undefined),
  z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
);

/** The configured level, or info while an invalid value waits to be refused by the configuration. */
export function configuredLogLevel(env: Record<string, string | undefined> = process.env): LogLevel {
  const parsed = logLevelSchema.safeParse(env.LOG_LEVEL);
  return parsed.success ? parsed.data : "info";
}
