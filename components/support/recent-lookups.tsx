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
    return <p className="text-sm text-slate-600 dark:text-slate-400">No lookups yet in this session.</p>;
  }
  return (
    <ol className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Recent lookups">
      {lookups.map((lookup) => (
        <li key={lookup.at} className="py-2 text-sm">
          <div className="flex items-baseline justify-between gap-3">
            <span className="font-mono whitespace-nowrap text-slate-900 dark:text-slate-100">
              {dotsLast4(lookup.last4)}
            </span>
            <time className="shrink-0 text-xs text-slate-500 dark:text-slate-400" dateTime={lookup.at}>
              {new Date(lookup.at).toLocaleTimeString()}
            </time>
          </div>
          <p
            className={cx(
              lookup.outcome === "found"
                ? "text-emerald-700 dark:text-emerald-300"
                : "text-amber-800 dark:text-amber-300",
            )}
          >
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
