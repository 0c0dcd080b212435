// GET /api/admin/sessions: the live sessions (admin). DELETE /api/admin/sessions?user=ID: ends all of a user's
// sessions, audited.
import { z } from "zod";
import { ApiError } from "@/lib/server/util/errors";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { listSessions } from "@/lib/server/session/admin-sessions";
import type { AdminSessionList, AdminSessionsEnded } from "@/lib/shared/admin-contract";

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
    const { sessionStore } = await context.services();
    const ended = await sessionStore.endAllForUser(parsed.data, "revoked");
    await context.audit({
      event: "session_end",
      outcome: "success",
      reason: "revoked",
      details: { ended_for: parsed.data, sessions: ended },
    });
    const body: AdminSessionsEnded = { ended };
    return json(body);
  }),
});
