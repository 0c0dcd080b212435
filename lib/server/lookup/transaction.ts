/**
 * GET /api/transactions/request-id/{id}: Lookup Transaction by Request Id (API specification §4.3 item 3). A GET changes
 * nothing upstream, so the driver's one retry after a 401 is safe here too.
 */
import "server-only";
import type { EnvironmentName, ExchangeRecord } from "@/lib/shared/contracts";
import { callWithToken } from "@/lib/server/token/authorized";
import { assertEnvironment, type CallContext } from "@/lib/server/token/call-context";

export async function lookupTransaction(
  call: CallContext,
  requestId: string,
  expectedEnvironment?: EnvironmentName,
): Promise<ExchangeRecord> {
  const started = performance.now();
  assertEnvironment(call, expectedEnvironment);
  return callWithToken(call, { operation: "transaction_lookup", requestId }, started);
}
