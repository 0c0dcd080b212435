// GET /api/session: environment, credential source and client_id, token metadata. DELETE: forget it all.
import { describeSession } from "@/lib/card-api/operations";
import { apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async (context) => json(describeSession(await context.session())));

export const DELETE = apiRoute(async (context) => {
  const session = await context.session();
  session.destroy();
  return json(describeSession(session));
});

const refuse = methodNotAllowed(["GET", "DELETE"]);
export { refuse as POST, refuse as PUT, refuse as PATCH };
export const OPTIONS = optionsHandler(["GET", "DELETE"]);
