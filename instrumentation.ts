/**
 * Next's start hook: validates the configuration once when the server starts, so that a bad variable stops
 * the process with a message naming it instead of failing the first request.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { validateConfigAtStartup } = await import("@/lib/config");
  validateConfigAtStartup();
}
