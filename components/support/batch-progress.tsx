import { ProgressBar } from "@/components/ui/progress-bar";
import type { SupportBatchProgress } from "@/lib/shared/support-contract";

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${seconds % 60} s`;
}

/** "Time left" only when the server can estimate it; cards already sent end when the upstream answers. */
function timeLeft(batch: SupportBatchProgress): string {
  if (batch.in_flight === 0) return "none";
  if (batch.eta_seconds === null) return "cannot tell yet";
  return `about ${duration(batch.eta_seconds)}`;
}

/** Progress and counts: found, not found, failed, cancelled and in flight always add up to the total. */
export function BatchProgress({ batch }: { batch: SupportBatchProgress }) {
  return (
    <div className="space-y-3">
      <ProgressBar
        label="Cards looked up"
        value={batch.done}
        max={batch.total}
        valueText={`${batch.done} of ${batch.total} cards`}
      />
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4 lg:grid-cols-7" aria-label="Batch counts">
        <Figure label="Found" value={batch.found} />
        <Figure label="Not found" value={batch.not_found} />
        <Figure label="Failed" value={batch.errors} />
        <Figure label="Cancelled" value={batch.cancelled} />
        <Figure label="In flight" value={batch.in_flight} />
        <Figure label="Rate" value={batch.rate === null ? "—" : `${batch.rate} cards/s`} />
        <Figure label="Time left" value={timeLeft(batch)} />
      </dl>
      {batch.status === "cancelled" && batch.in_flight > 0 ? (
        <p className="text-sm text-body" role="status">
          Cancelled: {batch.in_flight} card{batch.in_flight === 1 ? " was" : "s were"} already sent and will
          finish on their own; this page follows them.
        </p>
      ) : null}
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <div>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="font-mono text-lg font-semibold text-fg tabular-nums">{value}</dd>
    </div>
  );
}
