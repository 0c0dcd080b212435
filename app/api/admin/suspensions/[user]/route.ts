// DELETE /api/admin/suspensions/{user_id}: lifts a suspension in force (admin), audited `user_unsuspended`; 404
// when none is in force.
import { ApiError } from "@/lib/server/util/errors";
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/admin/suspensions/[user]"];

function userIdFrom(request: Request): string {
  try {
    const id = decodeURIComponent(new URL(request.url).pathname.split("/").pop() ?? "");
    if (id.length > 0 && id.length <= 256) return id;
  } catch {
    // A malformed escape names no user.
  }
  throw new ApiError("not_found", "No suspension in force for that user.");
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  DELETE: apiRoute(route.DELETE, async (context) => {
    const userId = userIdFrom(context.request);
    const { suspensions } = await context.services();
    if (!(await suspensions.lift(userId))) {
      throw new ApiError("not_found", "No suspension in force for that user: it may have ended already.");
    }
    await context.audit({ event: "user_unsuspended", outcome: "success", details: { suspended: userId } });
    return json({ lifted: userId });
  }),
});
