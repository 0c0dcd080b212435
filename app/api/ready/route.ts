// GET /api/ready: 200 when the configuration fits a deployment and the database answers with every migration;
// 503 in the error shape, listing every reason, otherwise.
import type { ErrorBody } from "@/lib/shared/contracts";
import { ConfigError, getConfig } from "@/lib/server/config";
import { storageSettingsFromConfig, storageSettingsFromEnv } from "@/lib/server/database";
import { checkReadiness, sharedSettingProblems } from "@/lib/server/database/readiness";
import { PUBLIC, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";

export const dynamic = "force-dynamic";

function configurationProblems(): string[] {
  try {
    return sharedSettingProblems(getConfig());
  } catch (error) {
    if (error instanceof ConfigError) return [`configuration invalid: ${error.message}`];
    throw error;
  }
}

/** The settings lib/server/root/services opens the database with (one handle per process), or the raw variables when the
 * configuration itself is invalid (that is reported as a reason). */
function storageSettings() {
  try {
    return storageSettingsFromConfig(getConfig());
  } catch {
    return storageSettingsFromEnv();
  }
}

export const GET = apiRoute(
  PUBLIC,
  async () => {
    const readiness = await checkReadiness(storageSettings(), configurationProblems());
    if (readiness.ready) return json({ status: "ready", database: readiness.database });
    const body: ErrorBody = {
      error: {
        code: "not_ready",
        message: `The console is not ready: ${readiness.reasons.join("; ")}.`,
        details: {
          reasons: readiness.reasons,
          ...(readiness.pending ? { pending_migrations: readiness.pending } : {}),
        },
      },
    };
    return json(body, 503);
  },
  { quiet: true },
);

const refuse = methodNotAllowed(["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET"]);
