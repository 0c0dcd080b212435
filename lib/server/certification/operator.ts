/**
 * Who starts a run. AUTH_MODE=none: the local user (docs/design.md §6). Signed-in modes: the route wrapper's
 * user once sign-in is wired into apiRoute; until then a run is refused rather than recorded without one.
 */
import "server-only";
import type { ServerConfig } from "@/lib/server/config";
import { ApiError } from "@/lib/server/util/errors";
import type { Operator } from "./service";

export function operatorOf(
  config: Pick<ServerConfig, "authMode">,
  user?: { id: string; name: string } | null,
): Operator {
  if (user) return { id: user.id, name: user.name };
  if (config.authMode === "none") return { id: "local", name: "Local user" };
  throw new ApiError("not_signed_in", "Sign in to start a certification run.");
}
