// DELETE /api/admin/sessions/{id}: ends one live session (named by its handle), audited; 404 when none is live.
import { ApiError } from "@/lib/server/util/errors";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { endSessionByHandle } from "@/lib/server/session/admin-sessions";
import type { AdminSessionsEnded } from "@/lib/shared/admin-contract";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/admin/sessions/[id]"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  DELETE: apiRoute(route.DELETE, async (context) => {
    const handle = new URL(context.request.url).pathname.split("/").pop() ?? "";
    if (!/^[\w-]{22}$/.test(handle)) throw new ApiError("not_found", "No such live session.");
    const { sessionStore } = await context.services();
    const owner = await endSessionByHandle(sessionStore, handle);
    if (owner === null) throw new ApiError("not_found", "No such live session: it may have ended already.");
    await context.audit({
      event: "session_end",
      outcome: "success",
      reason: "revoked",
      details: { ended_for: owner, sessions: 1 },
    });
    const body: AdminSessionsEnded = { ended: 1 };
    return json(body);
  }),
});
