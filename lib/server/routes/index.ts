/**
 * The console API's route catalogue: every route template under app/api and what each of its methods is
 * (lib/server/http/declaration.ts). Route files serve their entry (`defineRoute(ROUTES[template], …)`), the
 * OpenAPI document is generated from it, and the metrics label a call by the template it was served under.
 * test/unit/server/http/route-catalogue.test.ts checks that every route file has an entry and every entry a file.
 */
import { declareRoutes } from "@/lib/server/http/declaration";
import { adminRoutes } from "./admin";
import { certificationRoutes } from "./certification";
import { monitorRoutes } from "./monitors";
import { CATCH_ALL, platformRoutes } from "./platform";
import { sessionRoutes } from "./session";
import { supportRoutes } from "./support";

export { CATCH_ALL };

export const ROUTES = declareRoutes({
  ...sessionRoutes,
  ...certificationRoutes,
  ...monitorRoutes,
  ...supportRoutes,
  ...adminRoutes,
  ...platformRoutes,
});
