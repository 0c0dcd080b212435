// Any other /api path: 404 in the console's error shape (not Next's HTML page), never cached.
import { ApiError } from "@/lib/server/util/errors";
import { PUBLIC, apiRoute } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

const notFound = apiRoute(PUBLIC, async (context) => {
  throw new ApiError("not_found", `No console API at ${new URL(context.request.url).pathname}.`);
});
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
