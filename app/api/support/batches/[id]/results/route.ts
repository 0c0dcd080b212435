// GET /api/support/batches/{id}/results?from=&limit=&show=&download=: a page of masked results in input order (the
// page's table), optionally of one outcome only. The page polls it while a batch runs, so only `download=1` (the
// page saved as a file) is a download in the audit log; showing results is not.
import { apiRoute, json, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { MAX_RESULTS_PAGE, resultsPage } from "@/lib/server/support/batches";
import { auditedBatchCaller, auditResultsDownload } from "@/lib/server/support/batch-audit";
import { batchIdFrom, resultsPageParams } from "@/lib/server/support/route-helpers";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/support/batches/[id]/results"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    const id = batchIdFrom(context.request);
    const { from, limit, show, download } = resultsPageParams(context.request, MAX_RESULTS_PAGE);
    const services = await (await context.services()).support();
    const { batch } = await auditedBatchCaller(context, services, id);
    const page = await resultsPage(services, batch, from, limit, show);
    if (!download) return json(page);
    await auditResultsDownload(context, batch, { format: "json", from, limit, ...(show ? { show } : {}) });
    return json(page, 200, {
      "Content-Disposition": `attachment; filename="support-batch-${id}-${from}.json"`,
    });
  }),
});
