/**
 * The route helpers route files use, bound to the process's root: `context.root` is the ConsoleRoot, and
 * `context.services()` its storage-backed services.
 */
import "server-only";
import { createRouteKit, type RouteContext as AnyRouteContext } from "@/lib/server/http/route";
import type { ConsoleRoot } from "./console-root";
import { consoleRoot } from "./process";

export {
  PUBLIC,
  SIGNED_IN,
  allowGlobal,
  allowIn,
  allowSomewhere,
  canActIn,
  defineRoute,
  json,
  type AuditFields,
  type RouteAccess,
  type RouteHandler,
  type RouteOptions,
} from "@/lib/server/http/route";

export type RouteContext = AnyRouteContext<ConsoleRoot>;

export const { apiRoute } = createRouteKit(consoleRoot);
