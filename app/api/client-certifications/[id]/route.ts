// GET /api/client-certifications/{id}: status, steps, checks so far and a page of the recorded calls (masked,
// redacted): `?calls_after=<seq>&limit=<n>` (the page asks only for calls newer than the last it has).
import { certificationIdOf, viewerOf } from "@/lib/server/client-certification";
import { DEFAULT_CALL_PAGE } from "@/lib/server/client-certification/service";
import { validateInput } from "@/lib/server/util/validation";
import { allowSomewhere, apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { clientCallPageSchema } from "@/lib/shared/client-certification-contract";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute(allowSomewhere("certification_run"), async (context) => {
    const id = certificationIdOf(context.request);
    const query = validateInput(
      Object.fromEntries(new URL(context.request.url).searchParams),
      clientCallPageSchema,
    );
    const service = await (await context.services()).clientCertification();
    const page = { after: query.calls_after, limit: query.limit ?? DEFAULT_CALL_PAGE };
    return json(await service.get(id, viewerOf(await context.user()), page));
  }),
});
