/**
 * Next's start hook: validates the configuration once when the server starts, so that a bad variable stops
 * the process with a message naming it instead of failing the first request, builds the composition root from
 * it (lib/server/root), and starts what runs at start: the database opened (so that the first request does not
 * open it), the background sweep and the monitor scheduler.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installRootAtStartup } = await import("@/lib/server/root/process");
  const root = installRootAtStartup();
  // `next build` may load this hook to prerender: a build opens no database.
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  await root.start();
}
