/**
 * zod building blocks for environment variables: blank counts as unset, whole numbers with bounds.
 * No secrets and no server-only import: the console's configuration and the sandbox's own settings
 * (lib/sandbox/settings.ts) both read their variables with these.
 */
import { z } from "zod";

export const blankToUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === ""
    ? undefined
    : typeof value === "string"
      ? value.trim()
      : value;

export const integer = (min: number, max: number, fallback: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
      .transform(Number)
      .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
      .default(fallback),
  );

export const onOff = (fallback: "on" | "off") =>
  z.preprocess(
    (value) => (typeof blankToUndefined(value) === "string" ? String(value).trim().toLowerCase() : undefined),
    z.enum(["on", "off"], { error: "must be on or off" }).default(fallback),
  );

export const optionalText = z.preprocess(blankToUndefined, z.string().optional());

/** A bad variable: the message names it (and its value, unless it is a secret). */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = "ConfigError";
  }
}

/** Parses `env` with `schema`, throwing a ConfigError that names the first bad variable. */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
  secretVariables: ReadonlySet<string> = new Set(),
): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const variable = String(issue?.path[0] ?? "environment");
  const raw = env[variable];
  const shown = secretVariables.has(variable) || raw === undefined ? "" : ` (got ${JSON.stringify(raw)})`;
  throw new ConfigError(variable, `${issue?.message ?? "is invalid"}${shown}.`);
}
