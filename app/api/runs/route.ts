// GET /api/runs?request_id=&user=&operation=: the team's inquiry runs kept on the server, newest first.
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import type { TeamRunListResponse } from "@/lib/server/inquiry/runs/api";
import { listTeamRuns } from "@/lib/server/inquiry/runs/store";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/runs"];

// Runs hold raw exchanges: the roles that may see one (engineer, tester, admin; never support).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const query = context.query();
    const { db } = await context.services();
    const runs = await listTeamRuns(db, {
      ...(query.request_id ? { requestId: query.request_id } : {}),
      ...(query.user ? { user: query.user } : {}),
      ...(query.operation ? { operation: query.operation } : {}),
    });
    const body: TeamRunListResponse = { runs, retention_days: context.config.runsRetentionDays };
    return json(body);
  }),
});
