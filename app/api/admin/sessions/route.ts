// GET /api/admin/sessions: the live sessions (admin). DELETE /api/admin/sessions?user=ID: ends all of a user's
// sessions, audited.
import { z } from "zod";
import { ApiError } from "@/lib/server/util/errors";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { listSessions } from "@/lib/server/session/admin-sessions";
import { stopUserWork, workActor } from "@/lib/server/root/user-work";
import type { AdminSessionList, AdminUserSessionsEnded } from "@/lib/shared/admin-contract";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/admin/sessions"];

const userQuery = z.string().min(1).max(256);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const { sessionStore } = await context.services();
    const body: AdminSessionList = { sessions: await listSessions(sessionStore) };
    return json(body);
  }),
  DELETE: apiRoute(route.DELETE, async (context) => {
    const parsed = userQuery.safeParse(new URL(context.request.url).searchParams.get("user") ?? undefined);
    if (!parsed.success) {
      throw new ApiError("validation_failed", "Name the user whose sessions end: ?user=ID.", {
        fields: { user: ["required: the user's id"] },
      });
    }
    const services = await context.services();
    const ended = await services.sessionStore.endAllForUser(parsed.data, "revoked");
    // What runs in their name stops with their sessions (a lift or a new sign-in does not restart it).
    const stopped = await stopUserWork(services, parsed.data, await workActor(context));
    await context.audit({
      event: "session_end",
      outcome: "success",
      reason: "revoked",
      details: { ended_for: parsed.data, sessions: ended, ...stopped },
    });
    const body: AdminUserSessionsEnded = { ended, sessions_ended: ended, ...stopped };
    return json(body);
  }),
});
