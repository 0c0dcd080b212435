// GET /api/certification/runs/{id}/exchanges/{exchangeId}: one exchange of a run, masked and redacted as
// stored (the same record the evidence bundle holds), so a case's request and response show on its page.
import { certificationService } from "@/lib/server/certification/service";
import { allowSomewhere, apiRoute, json, methodNotAllowed, optionsHandler } from "@/lib/server/http/route";

export const dynamic = "force-dynamic";

export const GET = apiRoute(allowSomewhere("certification_run"), async (context) => {
  const segments = new URL(context.request.url).pathname.split("/");
  const service = await certificationService();
  return json(await service.exchange(segments[4] ?? "", decodeURIComponent(segments[6] ?? "")));
});

const refuse = methodNotAllowed(["GET"]);
export { refuse as POST, refuse as PUT, refuse as PATCH, refuse as DELETE };
export const OPTIONS = optionsHandler(["GET"]);
