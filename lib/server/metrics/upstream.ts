/**
 * Upstream metrics as a transport wrapper: every call the card API client makes (token, both inquiries, the
 * lookup) passes through its environment's transport, so counting there misses none and touches no caller.
 */
import "server-only";
import { classifyTransportError, type Transport } from "@/lib/server/card-api/transport";
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
    let status = "network";
    try {
      const response = await transport(request);
      status = statusLabel(response.status);
      return response;
    } catch (error) {
      // No answer: the failure's kind (timeout, refused, tls, network) stands in for a status.
      status = classifyTransportError(error).kind;
      throw error;
    } finally {
      stop();
      metrics.upstreamCalls.inc({ operation, environment, status });
      if (operation === "token") metrics.tokenRequests.inc({ environment, status });
    }
  };
}
