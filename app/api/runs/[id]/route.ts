// GET /api/runs/{id}: one run of the team, with its exchange record (masked and redacted as recorded).
import { ApiError } from "@/lib/server/util/errors";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import type { TeamRunResponse } from "@/lib/server/inquiry/runs/api";
import { getTeamRun } from "@/lib/server/inquiry/runs/store";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/runs/[id]"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const id = decodeURIComponent(new URL(context.request.url).pathname.split("/")[3] ?? "");
    const { db } = await context.services();
    const run: TeamRunResponse | null = await getTeamRun(db, id);
    if (!run)
      throw new ApiError("not_found", "No run with this id is kept (runs are kept RUNS_RETENTION_DAYS).");
    return json(run);
  }),
});
