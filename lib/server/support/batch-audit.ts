/**
 * A batch route's caller, with the audit rows of batch reads: a batch that is absent or someone else's (404) is
 * recorded, so probing for other users' batch ids leaves a trace, and a results download (JSON page or CSV) is
 * recorded like any other read of card data.
 */
import "server-only";
import { ApiError } from "@/lib/server/util/errors";
import type { RouteContext } from "@/lib/server/http/route";
import type { BatchRow } from "./batch-store";
import { batchCaller, type SupportCaller } from "./caller";
import type { SupportBatchDeps } from "./batches";

export async function auditedBatchCaller(
  context: RouteContext,
  deps: SupportBatchDeps,
  id: string,
): Promise<SupportCaller & { batch: BatchRow }> {
  try {
    return await batchCaller(context.config, context.request, await context.user(), deps, id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      await context.audit({
        event: "support_batch_not_found",
        outcome: "failure",
        reason: error.code,
        operation: `${context.request.method} ${new URL(context.request.url).pathname}`.slice(0, 64),
        details: { batch_id: id.slice(0, 128) },
      });
    }
    throw error;
  }
}

export function auditResultsDownload(
  context: RouteContext,
  batch: BatchRow,
  details: Record<string, string | number>,
): Promise<void> {
  return context.audit({
    event: "support_batch_results_downloaded",
    outcome: "success",
    environment: batch.environment,
    details: { batch_id: batch.id, ...details },
  });
}
