// GET /api/ready: 200 when the database answers and has every migration; 503 in the error shape otherwise.
import type { ErrorBody } from "@/lib/api/contracts";
import { storageSettingsFromEnv } from "@/lib/db";
import { checkReadiness } from "@/lib/db/readiness";
import { PUBLIC, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = apiRoute(
  PUBLIC,
  async () => {
    const readiness = await checkReadiness(storageSettingsFromEnv());
    if (readiness.ready) return json({ status: "ready", database: readiness.database });
    const body: ErrorBody = {
      error: {
        code: "not_ready",
        message: `The console is not ready: ${readiness.reason}.`,
        ...(readiness.pending ? { details: { pending_migrations: readiness.pending } } : {}),
      },
    };
    return json(body, 503);
  },
  { quiet: true },
);

const refuse = methodNotAllowed(["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET"]);
