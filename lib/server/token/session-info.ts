/** GET /api/session's answer: the call context a session resolves to, described for the browser. */
import "server-only";
import type { EnvironmentName, SessionInfo } from "@/lib/shared/contracts";
import { describeEnvironments } from "@/lib/server/card-api/environments";
import type { ServerConfig } from "@/lib/server/config";
import type { AccessToken } from "@/lib/server/session";
import { logger } from "@/lib/server/util/logger";
import { boundToken, type CallContext } from "./call-context";
import { tokenMetadata } from "./metadata";

/**
 * `tokenDetails` says whether the caller may see token metadata in the session's environment (the
 * `token_details` action; support may not): without it, `token` is null.
 */
export function describeSession(
  config: ServerConfig,
  call: CallContext,
  tokenDetails: (environment: EnvironmentName) => boolean,
): SessionInfo {
  const token = tokenDetails(call.environment.name) ? boundToken(call) : undefined;
  return {
    environment: call.environment.name,
    environments: describeEnvironments(config),
    credentials: call.shown,
    token: token ? metadataOrNull(token) : null,
  };
}

/** GET /api/session must answer whatever a session holds: a token it cannot describe is shown as none. */
function metadataOrNull(token: AccessToken) {
  try {
    return tokenMetadata(token);
  } catch (error) {
    logger.warn({ error: error instanceof Error ? error.message : String(error) }, "token metadata failed");
    return null;
  }
}
