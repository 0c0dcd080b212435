// GET /api/certification/runs/{id}: one run's progress and per-case results (exchange bodies are in the bundle).
import { certificationService } from "@/lib/server/certification/service";
import { allowSomewhere, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";

export const dynamic = "force-dynamic";

export const GET = apiRoute(allowSomewhere("certification_run"), async (context) => {
  const id = new URL(context.request.url).pathname.split("/")[4] ?? "";
  const service = await certificationService();
  const view = await context.audited(
    { event: "certification_run_viewed", outcome: "success", details: { run_id: id.slice(0, 128) } },
    () => service.view(id),
    () => ({}),
  );
  return json(view);
});

const refuse = methodNotAllowed(["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET"]);
