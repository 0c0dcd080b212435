/**
 * What the server does when it starts (instrumentation): the configuration is validated (a bad variable stops
 * the process with a message naming it), the root is built from it, the database is opened, and the
 * background sweep starts.
 */
import "server-only";
import { loadConfig, validateConfigAtStartup } from "@/lib/server/config";
import { createProcessParts } from "./process-parts";
import { createConsoleRoot, type ConsoleRoot } from "./console-root";
import { installConsoleRoot } from "./process";

/** Validates the configuration and installs the process's root built from it. */
export function installRootAtStartup(exit?: (code: number) => never): ConsoleRoot {
  const parts = createProcessParts();
  const config = validateConfigAtStartup(() => loadConfig(process.env), parts.logger, exit);
  return installConsoleRoot(createConsoleRoot(config, parts));
}

/**
 * Opens the services at start: the database is opened and migrated then, not by the first request (PGlite's
 * start took tens of seconds under load). PGlite is awaited, so the server listens with its database open;
 * PostgreSQL opens in the background (a server that is down must not stop the start: `/api/ready` waits for
 * this same open and says why it failed). A failure is logged; the next request retries.
 */
export async function openServicesAtStart(root: ConsoleRoot): Promise<void> {
  const { config, logger } = root;
  const started = performance.now();
  const opening = root.services().then(
    () =>
      logger.info(
        { database: config.databaseUrl ? "postgres" : "pglite", ms: Math.round(performance.now() - started) },
        "database open",
      ),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      // A URL in an error message could carry a password.
      logger.error({ error: message.replace(/\/\/[^@\s]*@/g, "//***@") }, "database not opened at start");
    },
  );
  if (!config.databaseUrl) await opening;
}
