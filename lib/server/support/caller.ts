/**
 * Who calls a support route, for role checks, masking, batch ownership and the audit log. The user is the one the
 * route wrapper resolved (lib/server/http/route: sign-in, proxy identity, or the local user of AUTH_MODE=none).
 */
import "server-only";
import type { EnvironmentName } from "@/lib/shared/contracts";
import { assertAllowed, type SignedInUser } from "@/lib/server/identity";
import type { EnvironmentAction } from "@/lib/server/identity/roles";
import type { ServerConfig } from "@/lib/server/config";
import { clientAddress } from "@/lib/server/util/peer-address";
import type { AuditActor } from "./audit-rows";
import type { BatchRow } from "./batch-store";
import { ownedBatch, type SupportBatchDeps } from "./batches";

export interface SupportCaller {
  user: SignedInUser;
  actor: AuditActor;
}

/** 403 `forbidden_by_role` when the user's roles do not allow `action` in `environment`. */
export function supportCaller(
  config: ServerConfig,
  request: Request,
  user: SignedInUser,
  action: Extract<EnvironmentAction, "support_lookup" | "support_batch">,
  environment: EnvironmentName,
): SupportCaller {
  assertAllowed(user.roles, action, environment);
  return {
    user,
    actor: {
      userId: user.id,
      roles: user.roles,
      clientAddress: clientAddress(request, config.trustedProxies),
    },
  };
}

/**
 * The caller of a batch route: signed in, owner of the batch (or admin; 404 otherwise), and allowed
 * `support_batch` in the batch's environment.
 */
export async function batchCaller(
  config: ServerConfig,
  request: Request,
  user: SignedInUser,
  deps: SupportBatchDeps,
  id: string,
): Promise<SupportCaller & { batch: BatchRow }> {
  const batch = await ownedBatch(deps, id, { userId: user.id, roles: user.roles });
  return {
    ...supportCaller(config, request, user, "support_batch", batch.environment as EnvironmentName),
    batch,
  };
}
