// GET /api/support/batches/{id}/results.csv: the masked results (last 4, keyed hash, the eight purses, status,
// error), one row per card in input order, streamed.
import { apiRoute, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { resultsCsv } from "@/lib/server/support/batches";
import { auditedBatchCaller, auditResultsDownload } from "@/lib/server/support/batch-audit";
import { batchIdFrom } from "@/lib/server/support/route-helpers";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/support/batches/[id]/results.csv"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const id = batchIdFrom(context.request);
    const services = await (await context.services()).support();
    const { batch } = await auditedBatchCaller(context, services, id);
    await auditResultsDownload(context, batch, { format: "csv" });
    return new Response(resultsCsv(services, batch), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="support-batch-${id}.csv"`,
      },
    });
  }),
});
