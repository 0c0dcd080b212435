/**
 * Who calls a support route, for role checks, masking, batch ownership and the audit log.
 *
 * INTEGRATOR: `requestUser` is where W1's signed-in user (server-side session / proxy identity) plugs in; today
 * only AUTH_MODE=none runs (the local user with every role), and any other mode is treated as signed out.
 */
import "server-only";
import type { EnvironmentName } from "@/lib/api/contracts";
import { LOCAL_USER, assertAllowed, requireUser, type SignedInUser } from "@/lib/auth";
import type { EnvironmentAction } from "@/lib/auth/roles";
import { getConfig } from "@/lib/config";
import { clientAddress } from "@/lib/http/peer-address";
import type { AuditActor } from "./audit-rows";
import type { BatchRow } from "./batch-store";
import { ownedBatch, type SupportBatchDeps } from "./batches";

export function requestUser(_request: Request): SignedInUser | null {
  return getConfig().authMode === "none" ? { ...LOCAL_USER, roles: [...LOCAL_USER.roles], groups: [] } : null;
}

export interface SupportCaller {
  user: SignedInUser;
  actor: AuditActor;
}

/** 401 when signed out, 403 `forbidden_by_role` when the roles do not allow `action` in `environment`. */
export function supportCaller(
  request: Request,
  action: Extract<EnvironmentAction, "support_lookup" | "support_batch">,
  environment: EnvironmentName,
): SupportCaller {
  const user = requireUser(requestUser(request));
  assertAllowed(user.roles, action, environment);
  return {
    user,
    actor: {
      userId: user.id,
      roles: user.roles,
      clientAddress: clientAddress(request, getConfig().trustedProxies),
    },
  };
}

/**
 * The caller of a batch route: signed in, owner of the batch (or admin; 404 otherwise), and allowed
 * `support_batch` in the batch's environment.
 */
export async function batchCaller(
  request: Request,
  deps: SupportBatchDeps,
  id: string,
): Promise<SupportCaller & { batch: BatchRow }> {
  const user = requireUser(requestUser(request));
  const batch = await ownedBatch(deps, id, { userId: user.id, roles: user.roles });
  return { ...supportCaller(request, "support_batch", batch.environment as EnvironmentName), batch };
}
