import { cx } from "@/components/ui/class-names";
import type { LookupOutcome } from "@/lib/shared/support-contract";
import { dotsLast4, OUTCOME_TITLES } from "./lookup-messages";

/** What the page remembers of a lookup for this browser session: masked, never the number. */
export interface RecentLookup {
  last4: string;
  outcome: LookupOutcome | "error";
  title: string;
  gift: string | null;
  at: string;
}

export function RecentLookups({ lookups }: { lookups: RecentLookup[] }) {
  if (lookups.length === 0) {
    return <p className="text-sm text-muted">No lookups yet in this session.</p>;
  }
  return (
    <ol className="divide-y divide-default" aria-label="Recent lookups">
      {lookups.map((lookup) => (
        <li key={lookup.at} className="py-2 text-sm">
          <div className="flex items-baseline justify-between gap-3">
            <span className="font-mono whitespace-nowrap text-fg">{dotsLast4(lookup.last4)}</span>
            <time className="shrink-0 text-xs text-subtle" dateTime={lookup.at}>
              {new Date(lookup.at).toLocaleTimeString()}
            </time>
          </div>
          <p className={cx(lookup.outcome === "found" ? "text-success" : "text-warning")}>
            {lookup.outcome === "found"
              ? `Gift ${lookup.gift ?? ""}`
              : lookup.outcome === "error"
                ? lookup.title
                : OUTCOME_TITLES[lookup.outcome].title}
          </p>
        </li>
      ))}
    </ol>
  );
}
