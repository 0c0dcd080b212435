// Any other /api path: 404 in the console's error shape (not Next's HTML page), never cached. Anyone can ask for
// endless paths, so its 404s count toward the address's limit like an anonymous caller's refusals.
import { ApiError } from "@/lib/server/util/errors";
import { PUBLIC, apiRoute } from "@/lib/server/root/route";

export const dynamic = "force-dynamic";

const notFound = apiRoute(
  PUBLIC,
  async (context) => {
    throw new ApiError("not_found", `No console API at ${new URL(context.request.url).pathname}.`);
  },
  { throttleByAddress: true },
);
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
