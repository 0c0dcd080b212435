// GET /api/admin/suspensions: the suspensions in force (admin). POST {user_id, minutes, reason?}: suspends a user
// on every instance and ends their sessions, audited `user_suspended`.
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { shownSuspension, suspendUser } from "@/lib/server/session/admin-suspensions";
import { stopUserWork, workActor } from "@/lib/server/root/user-work";
import type { AdminSuspended, AdminSuspensionList } from "@/lib/shared/admin-contract";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/admin/suspensions"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const { suspensions } = await context.services();
    const body: AdminSuspensionList = {
      suspensions: (await suspensions.list()).map(shownSuspension),
      auth_mode: context.config.authMode,
    };
    return json(body);
  }),
  POST: apiRoute(route.POST, async (context) => {
    const input = await context.body();
    const admin = await context.user();
    const services = await context.services();
    const { suspension, sessionsEnded, seen } = await suspendUser(services, input, admin.id);
    // What runs in their name stops too; a lift does not restart it.
    const stopped = await stopUserWork(services, input.user_id, await workActor(context));
    await context.audit({
      event: "user_suspended",
      outcome: "success",
      reason: input.reason ?? null,
      details: {
        suspended: input.user_id,
        minutes: input.minutes,
        until: suspension.until.toISOString(),
        sessions_ended: sessionsEnded,
        user_seen: seen,
        ...stopped,
      },
    });
    const body: AdminSuspended = {
      suspension: shownSuspension(suspension),
      user_seen: seen,
      sessions_ended: sessionsEnded,
      ...stopped,
    };
    return json(body, 201);
  }),
});
