// GET /api/metrics: the console's Prometheus metrics (lib/server/metrics), for a scraper with METRICS_TOKEN or an
// admin. Declared public because a scraper has no session: the handler checks the token, else the admin role.
import { apiRoute, defineRoute } from "@/lib/server/root/route";
import { ROUTES } from "@/lib/server/routes";
import { assertMetricsReader, configuredMetricsToken, hasMetricsToken } from "@/lib/server/metrics/access";
import { metricsResponse } from "@/lib/server/metrics/scrape";

export const dynamic = "force-dynamic";

const route = ROUTES["/api/metrics"];

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute(route, {
  GET: apiRoute(route.GET, async (context) => {
    if (!hasMetricsToken(context.request, configuredMetricsToken()))
      assertMetricsReader(await context.user());
    return metricsResponse(context.services, context.config, context.root.metrics);
  }),
});
