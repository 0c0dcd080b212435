// Any other /api path: 404 in the console's error shape (not Next's HTML page), never cached. Anyone can ask for
// endless paths, so its 404s count toward the address's limit like an anonymous caller's refusals.
import { ApiError } from "@/lib/server/util/errors";
import { apiRoute } from "@/lib/server/root/route";
import { CATCH_ALL, ROUTES } from "@/lib/server/routes";

export const dynamic = "force-dynamic";

const route = ROUTES[CATCH_ALL];

const notFound = async (context: { request: Request }): Promise<Response> => {
  throw new ApiError("not_found", `No console API at ${new URL(context.request.url).pathname}.`);
};

export const GET = apiRoute(route.GET, notFound);
export const POST = apiRoute(route.POST, notFound);
export const PUT = apiRoute(route.PUT, notFound);
export const PATCH = apiRoute(route.PATCH, notFound);
export const DELETE = apiRoute(route.DELETE, notFound);
