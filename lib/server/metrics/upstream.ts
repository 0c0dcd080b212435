/**
 * Upstream metrics as a transport wrapper: every call the card API client makes (token, both inquiries, the
 * lookup) passes through its environment's transport, so counting there misses none and touches no caller.
 */
import "server-only";
import { classifyTransportError, type Transport } from "@/lib/server/card-api/transport";
import { ApiError } from "@/lib/server/util/errors";
import { operationOf, type ConsoleMetrics } from "./index";
import { statusLabel } from "./routes";

export function meteredTransport(
  transport: Transport,
  environment: string,
  metrics: ConsoleMetrics,
): Transport {
  return async (request) => {
    const operation = operationOf(request.url);
    const stop = metrics.upstreamSeconds.startTimer({ operation, environment });
    const count = (status: string) => {
      stop();
      metrics.upstreamCalls.inc({ operation, environment, status });
      if (operation === "token") metrics.tokenRequests.inc({ environment, status });
    };
    let response;
    try {
      response = await transport(request);
    } catch (error) {
      // Refused locally (an ApiError): no call was made, so none is counted. Otherwise no answer: the failure's
      // kind (timeout, refused, tls, network) stands in for a status.
      if (!(error instanceof ApiError)) count(classifyTransportError(error).kind);
      throw error;
    }
    count(statusLabel(response.status));
    return response;
  };
}
