// GET /api/runs?request_id=&user=&operation=: the team's inquiry runs kept on the server, newest first.
import { validateInput } from "@/lib/server/http/guards";
import { allowSomewhere, apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { teamRunQuerySchema, type TeamRunListResponse } from "@/lib/server/inquiry/runs/api";
import { listTeamRuns } from "@/lib/server/inquiry/runs/store";

export const dynamic = "force-dynamic";

// Runs hold raw exchanges: the roles that may see one (engineer, tester, admin; never support).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(allowSomewhere("raw_exchange"), async (context) => {
    const params = Object.fromEntries(
      [...new URL(context.request.url).searchParams].filter(([, value]) => value.trim() !== ""),
    );
    const query = validateInput(params, teamRunQuerySchema);
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
