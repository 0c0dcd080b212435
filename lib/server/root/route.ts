/**
 * The route helpers route files use, bound to the process's root: `context.root` is the ConsoleRoot, and
 * `context.services()` its storage-backed services.
 */
import "server-only";
import { createRouteKit } from "@/lib/server/http/route";
import { consoleRoot } from "./process";

export { canActIn, defineRoute, json } from "@/lib/server/http/route";

export const { apiRoute } = createRouteKit(consoleRoot);
