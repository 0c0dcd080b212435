/**
 * Next's start hook: validates the configuration once when the server starts, so that a bad variable stops
 * the process with a message naming it instead of failing the first request, and opens the database then
 * (lib/server/root/services), so that the first request does not.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { validateConfigAtStartup } = await import("@/lib/server/config");
  const config = validateConfigAtStartup();
  // `next build` may load this hook to prerender: a build opens no database.
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { openServicesAtStart } = await import("@/lib/server/root/services");
  await openServicesAtStart(config);
  // Batches and runs left by an instance that died are finished or marked interrupted, even if nobody looks.
  const { startBackgroundSweep } = await import("@/lib/server/root/sweep");
  startBackgroundSweep(config);
}
