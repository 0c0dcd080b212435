// GET /api/ready: 200 when the configuration fits a deployment and the database answers with every migration;
// 503 in the error shape, listing every reason, otherwise.
import type { ErrorBody } from "@/lib/shared/contracts";
import { storageSettingsFromConfig } from "@/lib/server/database";
import { checkReadiness, sharedSettingProblems } from "@/lib/server/database/readiness";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/ready"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const { config, parts } = context.root;
    // The root's own database: the same open the services wait for (one handle per process).
    const readiness = await checkReadiness(
      parts.databases,
      storageSettingsFromConfig(config),
      sharedSettingProblems(config),
    );
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
  }),
});
