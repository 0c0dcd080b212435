/**
 * Next's start hook: validates the configuration once when the server starts, so that a bad variable stops
 * the process with a message naming it instead of failing the first request, builds the composition root from
 * it (lib/server/root), and opens the database then, so that the first request does not.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installRootAtStartup, openServicesAtStart } = await import("@/lib/server/root/start");
  const root = installRootAtStartup();
  // `next build` may load this hook to prerender: a build opens no database.
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  await openServicesAtStart(root);
  // Batches and runs left by an instance that died are finished or marked interrupted, even if nobody looks.
  root.startSweep();
  // Due monitor runs and their alerts (DESIGN.md §13); a database not open yet is retried by the next start.
  await root
    .startMonitors()
    .catch((error: unknown) =>
      root.logger.error(
        { error: error instanceof Error ? error.message : String(error) },
        "monitors not started",
      ),
    );
}
