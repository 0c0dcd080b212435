/**
 * The process's configuration, read from `process.env` once, at runtime (never baked into the build).
 * Kept on globalThis: Next may evaluate this module once per bundle (instrumentation, each route), and a
 * generated session password must be the same for all of them.
 */
import "server-only";
import { randomBytes } from "node:crypto";
import { logger, registerSecret } from "@/lib/server/util/logger";
import { processSingleton, setProcessSingleton } from "@/lib/server/process-singleton";
import { ConfigError, parseServerConfig, type ServerConfig } from "./schema";

export {
  ConfigError,
  rolesForGroups,
  type AuthMode,
  type EnvironmentConfig,
  type ServerConfig,
} from "./schema";

const SINGLETON = "config";

const generateSessionPassword = () => randomBytes(32).toString("base64url");

/** Parses an environment without touching the process's configuration. Throws `ConfigError`. */
export function loadConfig(env: Record<string, string | undefined>): ServerConfig {
  return parseServerConfig(env, generateSessionPassword);
}

export function getConfig(): ServerConfig {
  return processSingleton(SINGLETON, () => {
    const config = loadConfig(process.env);
    for (const password of config.sessionPasswords) registerSecret(password);
    registerSecret(config.serverCredentials?.clientSecret);
    registerSecret(config.oidc?.clientSecret);
    registerSecret(config.proxyAuth.sharedSecret);
    if (config.sessionSecretGenerated) {
      logger.warn(
        { variable: "SESSION_SECRET" },
        "SESSION_SECRET is not set: using a random session password for this process; sessions end when " +
          "it restarts, and several instances cannot share sessions. Set SESSION_SECRET (32+ characters).",
      );
    }
    return config;
  });
}

/** Replaces the process's configuration (tests). Returns the new configuration. */
export function setConfigForTests(env: Record<string, string | undefined>): ServerConfig {
  const config = loadConfig(env);
  for (const password of config.sessionPasswords) registerSecret(password);
  registerSecret(config.serverCredentials?.clientSecret);
  setProcessSingleton(SINGLETON, config);
  return config;
}

/**
 * Called from instrumentation's `register()` when the server starts: a bad variable stops the process with a
 * message naming it, before the first request.
 */
export function validateConfigAtStartup(exit: (code: number) => never = process.exit): ServerConfig {
  try {
    const config = getConfig();
    logger.info(
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
      logger.error({ variable: error.variable }, error.message);
      return exit(1);
    }
    throw error;
  }
}
