/**
 * Keeps a finished inquiry in the team's runs, off the response path: the run is handed to the batched writer
 * (./writer) once the answer is composed and nobody waits for it. A failure is logged (the run is then only in the user's browser), never
 * silently dropped and never turned into a failed inquiry that did reach the upstream.
 */
import "server-only";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { maskCardNumber } from "@/lib/shared/masking";
import type { InquiryOperation } from "@/lib/shared/operations";
import type { RouteContext, RouteRoot, RouteServices } from "@/lib/server/http/route";
import { logger } from "@/lib/server/util/logger";
import type { TeamRunWriter } from "./writer";

export function keepTeamRun(
  context: Pick<
    RouteContext<RouteRoot & { services(): Promise<RouteServices & { teamRuns: TeamRunWriter }> }>,
    "config" | "user" | "services"
  >,
  operation: InquiryOperation,
  cardNumber: string,
  exchange: ExchangeRecord,
): void {
  // One person on their own machine has the browser's history; the server keeps runs for teams.
  if (context.config.authMode === "none") return;
  const keep = async () => {
    const [user, services] = await Promise.all([context.user(), context.services()]);
    await services.teamRuns.keep({
      user: { id: user.id, name: user.name },
      operation,
      card: maskCardNumber(cardNumber),
      exchange,
    });
  };
  keep().catch((error: unknown) => {
    logger.error(
      { exchange_id: exchange.id, operation, error: error instanceof Error ? error.message : String(error) },
      "team run not kept",
    );
  });
}
