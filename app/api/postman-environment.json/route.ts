// GET /api/postman-environment.json?environment=NAME: a Postman environment (addresses, empty credentials) to
// import beside the collection (lib/server/postman). Engineers, testers and admins, as for the collection.
import { z } from "zod";
import { ENVIRONMENTS } from "@/lib/shared/contracts";
import { assertAllowed } from "@/lib/server/identity/enforce";
import { findEnvironment } from "@/lib/server/card-api/environments";
import { ApiError } from "@/lib/server/util/errors";
import { allowSomewhere, apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { documentOrigin } from "@/lib/server/openapi/origin";
import { postmanEnvironment } from "@/lib/server/postman/environment";

export const dynamic = "force-dynamic";

const querySchema = z.object({ environment: z.enum(ENVIRONMENTS) });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(allowSomewhere("copy_as_code"), async ({ request, config, user }) => {
    const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) {
      throw new ApiError("bad_request", `environment must be one of ${ENVIRONMENTS.join(", ")}.`);
    }
    const name = parsed.data.environment;
    const environment = findEnvironment(config, name);
    if (!environment)
      throw new ApiError("environment_unavailable", `The environment ${name} is not configured.`);
    assertAllowed((await user()).roles, "copy_as_code", name);
    // The embedded sandbox at the public origin this request was addressed to (there may be several).
    const sandboxUrl = `${documentOrigin(request, config)}/sandbox`;
    const embedded = environment.transport === "embedded";
    const document = postmanEnvironment({
      environment: name,
      authUrl: embedded ? sandboxUrl : environment.authUrl,
      baseUrl: embedded ? sandboxUrl : environment.baseUrl,
    });
    const response = json(document);
    response.headers.set(
      "Content-Disposition",
      `attachment; filename="card-services-${name}.postman_environment.json"`,
    );
    return response;
  }),
});
