/**
 * What runs in a user's name after they are gone: their support batches and certification runs. A suspension, or
 * an admin ending all of a user's sessions, stops them (docs/design.md §6): batches cancelled (cards not yet sent
 * are never sent), queued and running certification runs cancelled (the case under way ends, no other runs). A
 * lift does not restart them: the user starts again, or runs the failed cards again.
 */
import "server-only";
import type { CertificationService } from "@/lib/server/certification/service";
import type { RouteContext } from "@/lib/server/http/route";
import { clientAddress } from "@/lib/server/util/peer-address";
import type { AuditActor } from "@/lib/server/support/audit-rows";
import { cancelUserBatches, type SupportBatchDeps } from "@/lib/server/support/batches";

export interface UserWorkStopped {
  batches_stopped: number;
  runs_cancelled: number;
}

export async function stopUserWork(
  services: { support(): Promise<SupportBatchDeps>; certification(): Promise<CertificationService> },
  userId: string,
  actor: AuditActor,
): Promise<UserWorkStopped> {
  const [support, certification] = await Promise.all([services.support(), services.certification()]);
  const [batches, runs] = await Promise.all([
    cancelUserBatches(support, userId, actor),
    certification.cancelOperatorRuns(userId),
  ]);
  return { batches_stopped: batches, runs_cancelled: runs };
}

/** The admin who stops it, as the batches' cancel rows name them. */
export async function workActor(context: RouteContext): Promise<AuditActor> {
  const admin = await context.user();
  return {
    userId: admin.id,
    roles: admin.roles,
    clientAddress: clientAddress(context.request, context.config.trustedProxies),
  };
}
