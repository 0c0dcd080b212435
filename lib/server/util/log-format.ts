/**
 * LOG_FORMAT: `json` (one JSON object a line, for files, containers and log collectors) or `pretty` (one
 * readable line a call, for a person at a terminal). Unset, it follows stdout: pretty at a terminal, JSON
 * anywhere else. Read on its own, like LOG_LEVEL, because the logger starts before the configuration; an invalid
 * value is reported by the full configuration at start.
 */
import { z } from "zod";
import { blankToUndefined } from "@/lib/shared/env-values";

const LOG_FORMATS = ["json", "pretty"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const logFormatSchema = z.preprocess(
  (value) => (typeof blankToUndefined(value) === "string" ? String(value).trim().toLowerCase() : undefined),
  z.enum(LOG_FORMATS, { error: `must be one of ${LOG_FORMATS.join(", ")}` }).optional(),
);

/** The configured format; unset or invalid, pretty when stdout is a terminal and JSON otherwise. */
export function configuredLogFormat(
  env: Record<string, string | undefined> = process.env,
  stdoutIsTerminal: boolean = process.stdout.isTTY === true,
): LogFormat {
  const parsed = logFormatSchema.safeParse(env.LOG_FORMAT);
  const chosen = parsed.success ? parsed.data : undefined;
  return chosen ?? (stdoutIsTerminal ? "pretty" : "json");
}
