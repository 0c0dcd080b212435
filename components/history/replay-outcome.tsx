"use client";

import Link from "next/link";
import { summarizeExchange } from "@/lib/client/exchange-summary";
import { statusLine } from "@/lib/client/http-status";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { ApiErrorAlert } from "@/components/exchange/api-error-alert";
import { ExchangeView, statusTone } from "@/components/exchange/exchange-view";
import { StatusExplanation } from "@/components/exchange/status-explanation";
import type { ReplayResult } from "./use-replay";

/** What a replay answered, with the way to diff it against the original run or open it. */
export function ReplayOutcome({
  result,
  originalRunId,
  onOpenRun,
}: {
  result: ReplayResult;
  originalRunId: string;
  onOpenRun: (id: string) => void;
}) {
  return (
    <>
      {result && "error" in result ? (
        <ApiErrorAlert error={result.error} fallbackTitle="The replay got no answer" />
      ) : null}
      {result && "record" in result ? (
        <div className="space-y-3" data-testid="replay-result">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-medium text-fg">Replayed:</span>
              <Badge tone={statusTone(result.record.response.status)} size="lg">
                {statusLine(result.record.response.status)}
              </Badge>
              <span className="text-body">{summarizeExchange(result.record).label}</span>
            </p>
            <div className="flex gap-2">
              <Link
                href={`/compare?view=diff&a=${encodeURIComponent(originalRunId)}&b=${encodeURIComponent(result.record.id)}`}
                className={buttonClasses("secondary", "sm")}
              >
                Diff with the original
              </Link>
              <Button size="sm" onClick={() => onOpenRun(result.record.id)}>
                Open this run
              </Button>
            </div>
          </div>
          <StatusExplanation exchange={result.record} />
          <ExchangeView exchange={result.record} title="Replay: request and response" />
        </div>
      ) : null}
    </>
  );
}
