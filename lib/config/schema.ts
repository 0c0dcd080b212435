/**
 * The server's configuration (DESIGN.md §3), parsed from environment variables with zod. A bad value is a
 * `ConfigError` whose message names the variable; empty values count as unset.
 */
import "server-only";
import { z } from "zod";
import type { EnvironmentName } from "@/lib/api/contracts";

export const SESSION_SECRET_MIN_LENGTH = 32;

export interface EnvironmentConfig {
  name: EnvironmentName;
  /** `{auth_url}`: token base address, without a trailing slash. */
  authUrl: string;
  /** `{base_url}`: base address of the balance operations, without a trailing slash. */
  baseUrl: string;
  /** `embedded` calls the in-process sandbox; `http` calls the configured addresses over the network. */
  transport: "embedded" | "http";
}

export interface ServerConfig {
  /** Newest first; the first seals, all unseal. */
  sessionPasswords: string[];
  /** True when SESSION_SECRET was unset and a random per-process password is in use. */
  sessionSecretGenerated: boolean;
  sessionTtlSeconds: number;
  serverCredentials: { clientId: string; clientSecret: string } | null;
  timeoutMs: number;
  embeddedSandbox: boolean;
  sandboxDemoSecret: string;
  port: number;
  tokenRenewSkewSeconds: number;
  /** In display order; the first is the default environment. */
  environments: EnvironmentConfig[];
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = "ConfigError";
  }
}

const blankToUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === ""
    ? undefined
    : typeof value === "string"
      ? value.trim()
      : value;

const integer = (min: number, max: number, fallback: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
      .transform(Number)
      .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
      .default(fallback),
  );

/** http(s) only; no user info, query or fragment (paths are appended by the client). */
const baseAddress = z.preprocess(
  blankToUndefined,
  z
    .string()
    .refine((value) => URL.canParse(value), "must be an absolute http:// or https:// URL")
    .transform((value) => new URL(value))
    .refine((url) => url.protocol === "http:" || url.protocol === "https:", "must use http:// or https://")
    .refine((url) => !url.username && !url.password, "must not contain a user name or password")
    .refine((url) => !url.search && !url.hash, "must not contain a query or a fragment")
    .transform((url) => url.href.replace(/\/+$/, ""))
    .optional(),
);

const printableSecret = (what: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .max(500, "must be at most 500 characters")
      .regex(/^[\x20-\x7E]+$/, `must be printable ${what} without control characters`)
      .optional(),
  );

const envSchema = z.object({
  SESSION_SECRET: z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform((value) => value.split(",").map((part) => part.trim()))
      .refine(
        (parts) => parts.every((part) => part.length >= SESSION_SECRET_MIN_LENGTH),
        `must be at least ${SESSION_SECRET_MIN_LENGTH} characters (each one, when several are comma-separated)`,
      )
      .optional(),
  ),
  SESSION_TTL_SECONDS: integer(60, 34_560_000, 28_800),
  CARD_API_AUTH_URL: baseAddress,
  CARD_API_SANDBOX_URL: baseAddress,
  CARD_API_PRODUCTION_URL: baseAddress,
  CARD_API_CLIENT_ID: printableSecret("characters"),
  CARD_API_CLIENT_SECRET: printableSecret("characters"),
  CARD_API_TIMEOUT_MS: integer(100, 600_000, 10_000),
  EMBEDDED_SANDBOX: z.preprocess(
    (value) => (typeof blankToUndefined(value) === "string" ? String(value).trim().toLowerCase() : undefined),
    z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
  ),
  SANDBOX_DEMO_SECRET: z.preprocess(blankToUndefined, z.string().default("demo-secret")),
  PORT: integer(1, 65_535, 3000),
  TOKEN_RENEW_SKEW_SECONDS: integer(0, 3600, 120),
});

type ParsedEnv = z.infer<typeof envSchema>;

/** Variables whose values must not be repeated in an error message. */
const SECRET_VARIABLES = new Set(["SESSION_SECRET", "CARD_API_CLIENT_SECRET", "SANDBOX_DEMO_SECRET"]);

export function parseServerConfig(
  env: Record<string, string | undefined>,
  randomSecret: () => string,
): ServerConfig {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = String(issue?.path[0] ?? "environment");
    const raw = env[variable];
    const shown = SECRET_VARIABLES.has(variable) || raw === undefined ? "" : ` (got ${JSON.stringify(raw)})`;
    throw new ConfigError(variable, `${issue?.message ?? "is invalid"}${shown}.`);
  }
  return buildConfig(result.data, randomSecret);
}

function buildConfig(env: ParsedEnv, randomSecret: () => string): ServerConfig {
  const hasId = env.CARD_API_CLIENT_ID !== undefined;
  const hasSecret = env.CARD_API_CLIENT_SECRET !== undefined;
  if (hasId !== hasSecret) {
    const missing = hasId ? "CARD_API_CLIENT_SECRET" : "CARD_API_CLIENT_ID";
    throw new ConfigError(missing, "must be set together with the other of CARD_API_CLIENT_ID/_SECRET.");
  }
  const authUrl = env.CARD_API_AUTH_URL;
  if (!authUrl && (env.CARD_API_SANDBOX_URL || env.CARD_API_PRODUCTION_URL)) {
    throw new ConfigError(
      "CARD_API_AUTH_URL",
      "must be set when CARD_API_SANDBOX_URL or CARD_API_PRODUCTION_URL is (it is the token address).",
    );
  }

  const environments: EnvironmentConfig[] = [];
  if (env.EMBEDDED_SANDBOX === "on") {
    const local = `http://localhost:${env.PORT}/sandbox`;
    environments.push({ name: "embedded", authUrl: local, baseUrl: local, transport: "embedded" });
  }
  if (authUrl && env.CARD_API_SANDBOX_URL) {
    environments.push({ name: "sandbox", authUrl, baseUrl: env.CARD_API_SANDBOX_URL, transport: "http" });
  }
  if (authUrl && env.CARD_API_PRODUCTION_URL) {
    environments.push({
      name: "production",
      authUrl,
      baseUrl: env.CARD_API_PRODUCTION_URL,
      transport: "http",
    });
  }
  if (environments.length === 0) {
    throw new ConfigError(
      "EMBEDDED_SANDBOX",
      "is off and no other environment is configured: set CARD_API_AUTH_URL with CARD_API_SANDBOX_URL " +
        "or CARD_API_PRODUCTION_URL.",
    );
  }

  const configuredSecrets = env.SESSION_SECRET;
  return {
    sessionPasswords: configuredSecrets ?? [randomSecret()],
    sessionSecretGenerated: configuredSecrets === undefined,
    sessionTtlSeconds: env.SESSION_TTL_SECONDS,
    serverCredentials:
      env.CARD_API_CLIENT_ID && env.CARD_API_CLIENT_SECRET
        ? { clientId: env.CARD_API_CLIENT_ID, clientSecret: env.CARD_API_CLIENT_SECRET }
        : null,
    timeoutMs: env.CARD_API_TIMEOUT_MS,
    embeddedSandbox: env.EMBEDDED_SANDBOX === "on",
    sandboxDemoSecret: env.SANDBOX_DEMO_SECRET,
    port: env.PORT,
    tokenRenewSkewSeconds: env.TOKEN_RENEW_SKEW_SECONDS,
    environments,
  };
}
