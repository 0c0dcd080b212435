/**
 * The server's configuration (docs/design.md §3), parsed from environment variables with zod. A bad value is a
 * `ConfigError` whose message names the variable; empty values count as unset.
 */
import "server-only";
import { z } from "zod";
import { ROLES, type EnvironmentName, type Role } from "@/lib/shared/contracts";
import { isLoopbackHost, parseCidrList, type CidrList } from "@/lib/server/util/ip-address";
import { certificationEnvShape, certificationSettings, type CertificationSettings } from "./certification";
import { blankToUndefined, ConfigError, integer, optionalText, parseEnv } from "@/lib/shared/env-values";
import { logFormatSchema } from "@/lib/server/util/log-format";
import { logLevelSchema, type LogLevel } from "@/lib/server/util/log-level";
import { sandboxSettings, type SandboxSettings } from "./sandbox";

export { ConfigError } from "@/lib/shared/env-values";

const SESSION_SECRET_MIN_LENGTH = 32;

const AUTH_MODES = ["none", "oidc", "proxy"] as const;
type AuthMode = (typeof AUTH_MODES)[number];

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
  sessionIdleSeconds: number;
  /** RUNS_RETENTION_DAYS: how long the team's inquiry runs are kept on the server (lib/server/inquiry/runs). */
  runsRetentionDays: number;
  /** RATE_LIMIT_PER_MINUTE: calls that reach the upstream, per user and minute, across every instance. */
  rateLimitPerMinute: number;
  /** CERTIFICATION_RUNS_PER_HOUR: certification runs and monitor "run now" per user, environment and hour. */
  certificationRunsPerHour: number;
  serverCredentials: { clientId: string; clientSecret: string } | null;
  timeoutMs: number;
  embeddedSandbox: boolean;
  sandboxDemoSecret: string;
  sandbox: SandboxSettings;
  port: number;
  /** HOSTNAME: the address the server listens on. */
  hostname: string;
  /** PUBLIC_URL: the console's own origins (`scheme://host[:port]`), first one canonical. */
  publicOrigins: string[];
  /** TRUSTED_PROXIES: peers whose X-Forwarded-* (and, in proxy mode, identity headers) are believed. */
  trustedProxies: CidrList;
  authMode: AuthMode;
  oidc: {
    issuer: string;
    clientId: string;
    clientSecret: string | undefined;
    groupsClaim: string;
    /** OIDC_DISPLAY_NAME: the provider's name on the sign-in button (else the issuer's host). */
    displayName: string | undefined;
  } | null;
  proxyAuth: { userHeader: string; groupsHeader: string; sharedSecret: string | undefined };
  /** ROLE_GROUPS: for each role, the groups that grant it (a group may grant several roles). */
  roleGroups: Record<Role, string[]>;
  databaseUrl: string | undefined;
  dataDir: string;
  auditHmacKey: string | undefined;
  evidenceSigningKey: string | undefined;
  supportBatch: { maxCards: number; concurrency: number };
  logLevel: LogLevel;
  tokenRenewSkewSeconds: number;
  certification: CertificationSettings;
  /**
   * ALERT_WEBHOOK_URL, ALERT_WEBHOOK_SECRET and ALERT_WEBHOOK_SECRET_PREVIOUS: where monitors (docs/design.md §13)
   * post their alerts, and the Standard Webhooks secrets (`whsec_…`) that sign them (both during a rotation).
   */
  alerts: {
    webhookUrl: string | undefined;
    webhookSecret: string | undefined;
    previousWebhookSecret: string | undefined;
  };
  /** In display order; the first is the default environment. */
  environments: EnvironmentConfig[];
}

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

/** A base address that carries credentials or real transactions: plain http only to this machine. */
const secureBaseAddress = baseAddress.refine(
  (value) => value === undefined || value.startsWith("https:") || isLoopbackHost(new URL(value).hostname),
  "must use https:// (plain http:// is allowed only for a loopback address such as http://127.0.0.1:4010)",
);

/** Where alerts go: https (plain http only to this machine); a query is kept (some webhooks carry a token there). */
const webhookAddress = z.preprocess(
  blankToUndefined,
  z
    .string()
    .refine((value) => URL.canParse(value), "must be an absolute https:// URL")
    .transform((value) => new URL(value))
    .refine(
      (url) => url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname)),
      "must use https:// (plain http:// is allowed only for a loopback address)",
    )
    .refine(
      (url) => !url.username && !url.password && !url.hash,
      "must not contain a user name or a fragment",
    )
    .transform((url) => url.href)
    .optional(),
);

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 to 64 random bytes. */
const webhookSecret = z.preprocess(
  blankToUndefined,
  z
    .string()
    .regex(
      /^whsec_[A-Za-z0-9+/]+={0,2}$/,
      "must be whsec_ followed by base64 (e.g. whsec_$(openssl rand -base64 32))",
    )
    .refine((value) => {
      const bytes = Buffer.from(value.slice("whsec_".length), "base64").length;
      return bytes >= 24 && bytes <= 64;
    }, "must hold 24 to 64 bytes after whsec_ (openssl rand -base64 32)")
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

/** `https://console.example.com, http://localhost:3000` → their origins. */
const originList = z.preprocess(
  blankToUndefined,
  z
    .string()
    .transform((text, context) => {
      const origins: string[] = [];
      for (const part of text
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean)) {
        const url = URL.canParse(part) ? new URL(part) : null;
        if (!url || !/^https?:$/.test(url.protocol)) {
          context.addIssue({
            code: "custom",
            message: "must be comma-separated http:// or https:// origins, e.g. https://console.example.com",
          });
          return z.NEVER;
        }
        if (url.username || url.password || url.search || url.hash || url.pathname !== "/") {
          context.addIssue({
            code: "custom",
            message: "must be origins only (scheme, host and port), without a path, query or user name",
          });
          return z.NEVER;
        }
        if (!origins.includes(url.origin)) origins.push(url.origin);
      }
      return origins;
    })
    .optional(),
);

const cidrList = z.preprocess(
  blankToUndefined,
  z
    .string()
    .transform((text, context) => {
      try {
        return parseCidrList(text);
      } catch (error) {
        context.addIssue({
          code: "custom",
          message: `must be comma-separated CIDRs: ${(error as Error).message}`,
        });
        return z.NEVER;
      }
    })
    .optional(),
);

function emptyRoleGroups(): Record<Role, string[]> {
  return { support: [], engineer: [], tester: [], admin: [] };
}

const ROLE_GROUPS_FORMAT = "must be role:group pairs, e.g. admin:console-admins,tester:certification";

/** `admin:console-admins,tester:certification,tester:console-admins` → role → groups. */
const roleGroupsSchema = z.preprocess(
  blankToUndefined,
  z
    .string()
    .transform((text, context) => {
      const map = emptyRoleGroups();
      for (const pair of text
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean)) {
        const separator = pair.indexOf(":");
        const role = pair.slice(0, separator).trim();
        const group = pair.slice(separator + 1).trim();
        if (separator < 1 || !group) {
          context.addIssue({
            code: "custom",
            message: `${ROLE_GROUPS_FORMAT} (got ${JSON.stringify(pair)})`,
          });
          return z.NEVER;
        }
        if (!(ROLES as readonly string[]).includes(role)) {
          context.addIssue({
            code: "custom",
            message: `names an unknown role ${JSON.stringify(role)}; the roles are ${ROLES.join(", ")}`,
          });
          return z.NEVER;
        }
        const groups = map[role as Role];
        if (!groups.includes(group)) groups.push(group);
      }
      return map;
    })
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
  // Short lifetimes (down to 5 s) are for tests of expiry; a deployment uses minutes or hours.
  SESSION_TTL_SECONDS: integer(5, 34_560_000, 28_800),
  SESSION_IDLE_SECONDS: integer(5, 34_560_000, 900),
  RATE_LIMIT_PER_MINUTE: integer(1, 1_000_000, 120),
  CERTIFICATION_RUNS_PER_HOUR: integer(1, 1_000_000, 30),
  RUNS_RETENTION_DAYS: integer(1, 3650, 30),
  CARD_API_AUTH_URL: secureBaseAddress,
  CARD_API_SANDBOX_URL: baseAddress,
  CARD_API_PRODUCTION_URL: secureBaseAddress,
  CARD_API_CLIENT_ID: printableSecret("characters"),
  CARD_API_CLIENT_SECRET: printableSecret("characters"),
  CARD_API_TIMEOUT_MS: integer(100, 600_000, 10_000),
  PORT: integer(1, 65_535, 3000),
  HOSTNAME: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[\w.:[\]-]+$/, "must be an IP address or host name to listen on, e.g. 127.0.0.1")
      .optional(),
  ),
  PUBLIC_URL: originList,
  TRUSTED_PROXIES: cidrList,
  AUTH_MODE: z.preprocess(
    (value) => (typeof blankToUndefined(value) === "string" ? String(value).trim().toLowerCase() : undefined),
    z.enum(AUTH_MODES, { error: "must be none, oidc or proxy" }).default("none"),
  ),
  OIDC_ISSUER: baseAddress,
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  OIDC_GROUPS_CLAIM: z.preprocess(blankToUndefined, z.string().default("groups")),
  OIDC_DISPLAY_NAME: z.preprocess(blankToUndefined, z.string().trim().min(1).max(64).optional()),
  ROLE_GROUPS: roleGroupsSchema,
  PROXY_USER_HEADER: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[\w-]+$/, "must be an HTTP header name")
      .default("X-Forwarded-User"),
  ),
  PROXY_GROUPS_HEADER: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[\w-]+$/, "must be an HTTP header name")
      .default("X-Forwarded-Groups"),
  ),
  PROXY_SHARED_SECRET: z.preprocess(
    blankToUndefined,
    z.string().min(16, "must be at least 16 characters").optional(),
  ),
  DATABASE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection URL")
      .optional(),
  ),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default(".data")),
  AUDIT_HMAC_KEY: z.preprocess(
    blankToUndefined,
    z.string().min(32, "must be at least 32 characters").optional(),
  ),
  EVIDENCE_SIGNING_KEY: z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform((value) => value.replace(/\\n/g, "\n"))
      .refine((value) => value.includes("-----BEGIN PRIVATE KEY-----"), "must be a PKCS#8 PEM private key")
      .optional(),
  ),
  SUPPORT_BATCH_MAX_CARDS: integer(1, 1_000_000, 10_000),
  SUPPORT_BATCH_CONCURRENCY: integer(1, 64, 4),
  LOG_LEVEL: logLevelSchema,
  LOG_FORMAT: logFormatSchema,
  TOKEN_RENEW_SKEW_SECONDS: integer(0, 3600, 120),
  ALERT_WEBHOOK_URL: webhookAddress,
  ALERT_WEBHOOK_SECRET: webhookSecret,
  ALERT_WEBHOOK_SECRET_PREVIOUS: webhookSecret,
  ...certificationEnvShape,
});

type ParsedEnv = z.infer<typeof envSchema>;

/** Variables whose values must not be repeated in an error message. */
const SECRET_VARIABLES = new Set([
  "SESSION_SECRET",
  "CARD_API_CLIENT_SECRET",
  "SANDBOX_DEMO_SECRET",
  "SANDBOX_SIGNING_KEY",
  "OIDC_CLIENT_SECRET",
  "PROXY_SHARED_SECRET",
  "DATABASE_URL",
  "AUDIT_HMAC_KEY",
  "EVIDENCE_SIGNING_KEY",
  "ALERT_WEBHOOK_URL",
  "ALERT_WEBHOOK_SECRET",
  "ALERT_WEBHOOK_SECRET_PREVIOUS",
]);

export function parseServerConfig(
  env: Record<string, string | undefined>,
  randomSecret: () => string,
): ServerConfig {
  const parsed = parseEnv(envSchema, env, SECRET_VARIABLES);
  return buildConfig(parsed, sandboxSettings(env), randomSecret);
}

/** The console's canonical public origin: what every address it shows or copies names. */
function publicOriginsOf(env: ParsedEnv): string[] {
  return env.PUBLIC_URL ?? [`http://localhost:${env.PORT}`];
}

function buildEnvironments(env: ParsedEnv, sandbox: SandboxSettings): EnvironmentConfig[] {
  const authUrl = env.CARD_API_AUTH_URL;
  if (!authUrl && (env.CARD_API_SANDBOX_URL || env.CARD_API_PRODUCTION_URL)) {
    throw new ConfigError(
      "CARD_API_AUTH_URL",
      "must be set when CARD_API_SANDBOX_URL or CARD_API_PRODUCTION_URL is (it is the token address).",
    );
  }
  const environments: EnvironmentConfig[] = [];
  if (sandbox.embedded) {
    // Mounted in this console: its records and copied code name the address the console answers to (any
    // other Host gets 421), though the calls themselves never leave the process.
    const local = `${publicOriginsOf(env)[0]}/sandbox`;
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
  return environments;
}

/** The sign-in settings each mode needs (docs/design.md §6). */
function checkAuthMode(env: ParsedEnv, hostname: string, hasServerCredentials: boolean): void {
  if (env.AUTH_MODE === "none") {
    if (hasServerCredentials && !isLoopbackHost(hostname)) {
      throw new ConfigError(
        "AUTH_MODE",
        `is none (everyone who reaches the console uses it as the local user) while server-held credentials ` +
          `are configured and HOSTNAME is ${JSON.stringify(hostname)}, not a loopback address: set AUTH_MODE ` +
          "to oidc or proxy, or HOSTNAME to 127.0.0.1.",
      );
    }
    return;
  }
  if (env.AUTH_MODE === "oidc" && (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID)) {
    throw new ConfigError(
      env.OIDC_ISSUER ? "OIDC_CLIENT_ID" : "OIDC_ISSUER",
      "must be set when AUTH_MODE=oidc.",
    );
  }
  if (env.AUTH_MODE === "oidc" && !env.OIDC_CLIENT_SECRET) {
    throw new ConfigError("OIDC_CLIENT_SECRET", "must be set when AUTH_MODE=oidc (a confidential client).");
  }
  if (env.AUTH_MODE === "proxy") {
    if (!env.PROXY_SHARED_SECRET)
      throw new ConfigError("PROXY_SHARED_SECRET", "must be set when AUTH_MODE=proxy.");
    if (!env.TRUSTED_PROXIES) throw new ConfigError("TRUSTED_PROXIES", "must be set when AUTH_MODE=proxy.");
  }
}

/** Whether the server holds credentials; CARD_API_CLIENT_ID and _SECRET come together or not at all. */
function hasServerCredentials(env: ParsedEnv): boolean {
  const hasId = env.CARD_API_CLIENT_ID !== undefined;
  const hasSecret = env.CARD_API_CLIENT_SECRET !== undefined;
  if (hasId !== hasSecret) {
    const missing = hasId ? "CARD_API_CLIENT_SECRET" : "CARD_API_CLIENT_ID";
    throw new ConfigError(missing, "must be set together with the other of CARD_API_CLIENT_ID/_SECRET.");
  }
  return hasId;
}

/** How the console signs people in: the OIDC provider and the proxy's headers. */
function identitySettings(env: ParsedEnv): Pick<ServerConfig, "oidc" | "proxyAuth" | "roleGroups"> {
  return {
    oidc: env.OIDC_ISSUER
      ? {
          issuer: env.OIDC_ISSUER,
          clientId: env.OIDC_CLIENT_ID ?? "",
          clientSecret: env.OIDC_CLIENT_SECRET,
          groupsClaim: env.OIDC_GROUPS_CLAIM,
          displayName: env.OIDC_DISPLAY_NAME,
        }
      : null,
    proxyAuth: {
      userHeader: env.PROXY_USER_HEADER,
      groupsHeader: env.PROXY_GROUPS_HEADER,
      sharedSecret: env.PROXY_SHARED_SECRET,
    },
    roleGroups: env.ROLE_GROUPS ?? emptyRoleGroups(),
  };
}

function buildConfig(env: ParsedEnv, sandbox: SandboxSettings, randomSecret: () => string): ServerConfig {
  const hasId = hasServerCredentials(env);
  const environments = buildEnvironments(env, sandbox);
  if (sandbox.embedded && sandbox.testHooks && env.AUTH_MODE !== "none") {
    // /sandbox/* answers without sign-in; its reset and revoke hooks must not be open to a team's visitors.
    throw new ConfigError(
      "SANDBOX_TEST_HOOKS",
      "must be off unless AUTH_MODE=none (the hooks answer anyone).",
    );
  }
  const hostname = env.HOSTNAME ?? (env.AUTH_MODE === "none" ? "127.0.0.1" : "0.0.0.0");
  checkAuthMode(env, hostname, hasId);

  const configuredSecrets = env.SESSION_SECRET;
  return {
    sessionPasswords: configuredSecrets ?? [randomSecret()],
    sessionSecretGenerated: configuredSecrets === undefined,
    sessionTtlSeconds: env.SESSION_TTL_SECONDS,
    sessionIdleSeconds: env.SESSION_IDLE_SECONDS,
    runsRetentionDays: env.RUNS_RETENTION_DAYS,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    certificationRunsPerHour: env.CERTIFICATION_RUNS_PER_HOUR,
    serverCredentials:
      env.CARD_API_CLIENT_ID && env.CARD_API_CLIENT_SECRET
        ? { clientId: env.CARD_API_CLIENT_ID, clientSecret: env.CARD_API_CLIENT_SECRET }
        : null,
    timeoutMs: env.CARD_API_TIMEOUT_MS,
    embeddedSandbox: sandbox.embedded,
    sandboxDemoSecret: sandbox.demoSecret ?? "demo-secret",
    sandbox,
    port: env.PORT,
    hostname,
    publicOrigins: publicOriginsOf(env),
    trustedProxies: env.TRUSTED_PROXIES ?? parseCidrList(""),
    authMode: env.AUTH_MODE,
    ...identitySettings(env),
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    auditHmacKey: env.AUDIT_HMAC_KEY,
    evidenceSigningKey: env.EVIDENCE_SIGNING_KEY,
    supportBatch: { maxCards: env.SUPPORT_BATCH_MAX_CARDS, concurrency: env.SUPPORT_BATCH_CONCURRENCY },
    logLevel: env.LOG_LEVEL,
    tokenRenewSkewSeconds: env.TOKEN_RENEW_SKEW_SECONDS,
    certification: certificationSettings(env),
    alerts: {
      webhookUrl: env.ALERT_WEBHOOK_URL,
      webhookSecret: env.ALERT_WEBHOOK_SECRET,
      previousWebhookSecret: env.ALERT_WEBHOOK_SECRET_PREVIOUS,
    },
    environments,
  };
}

/** The roles a user's groups grant through ROLE_GROUPS. */
export function rolesForGroups(config: Pick<ServerConfig, "roleGroups">, groups: readonly string[]): Role[] {
  return ROLES.filter((role) => config.roleGroups[role].some((group) => groups.includes(group)));
}
