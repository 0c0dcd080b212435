/**
 * The configuration, read from `process.env` at runtime (never baked into the build). The composition root
 * (lib/server/root) reads it once per process and hands it down.
 */
import "server-only";
import { randomBytes } from "node:crypto";
import type { ConsoleLogger } from "@/lib/server/util/logger";
import { ConfigError, parseServerConfig, type ServerConfig } from "./schema";

export { ConfigError, rolesForGroups, type EnvironmentConfig, type ServerConfig } from "./schema";

const generateSessionPassword = () => randomBytes(32).toString("base64url");

/** Parses an environment without touching the process's configuration. Throws `ConfigError`. */
export function loadConfig(env: Record<string, string | undefined>): ServerConfig {
  return parseServerConfig(env, generateSessionPassword);
}

/**
 * Tells the logger the configuration's secrets (never to be written) and warns about a generated session
 * password: the composition root does it once for the configuration it is built from.
 */
export function registerConfigSecrets(config: ServerConfig, log: ConsoleLogger): void {
  for (const password of config.sessionPasswords) log.registerSecret(password);
  log.registerSecret(config.serverCredentials?.clientSecret);
  log.registerSecret(config.oidc?.clientSecret);
  log.registerSecret(config.proxyAuth.sharedSecret);
  // A Slack or Teams webhook address is itself the credential that posts to the channel.
  log.registerSecret(config.alerts.webhookUrl);
  log.registerSecret(config.alerts.webhookSecret);
  log.registerSecret(config.alerts.previousWebhookSecret);
  if (config.sessionSecretGenerated) {
    const message =
      "SESSION_SECRET is not set: using a random session password for this process; sessions end when " +
      "it restarts, and several instances cannot share sessions. Set SESSION_SECRET (32+ characters).";
    // Expected of one console on its embedded database, which no second instance can share: said, not warned.
    if (config.databaseUrl) log.warn({ variable: "SESSION_SECRET" }, message);
    else log.info({ variable: "SESSION_SECRET" }, message);
  }
}

/**
 * Called from instrumentation's `register()` when the server starts: a bad variable stops the process with a
 * message naming it, before the first request.
 */
export function validateConfigAtStartup(
  load: () => ServerConfig,
  log: ConsoleLogger,
  exit: (code: number) => never = process.exit,
): ServerConfig {
  try {
    const config = load();
    log.info(
      {
        environments: config.environments.map(({ name, authUrl, baseUrl }) => ({ name, authUrl, baseUrl })),
        serverCredentials: config.serverCredentials !== null,
        timeoutMs: config.timeoutMs,
        sessionTtlSeconds: config.sessionTtlSeconds,
        sessionPasswords: config.sessionPasswords.length,
        authMode: config.authMode,
        hostname: config.hostname,
        publicOrigins: config.publicOrigins,
        trustedProxies: config.trustedProxies.ranges,
      },
      "configuration loaded",
    );
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      // Plain stderr as well as the log: this is the one line an operator must see.
      console.error(error.message);
      log.error({ variable: error.variable }, error.message);
      return exit(1);
    }
    throw error;
  }
}
