import { PURSES, purseLabel, type Purse } from "@/lib/shared/purses";

/** The eight purses, large and in the specification's order, for reading aloud on a call. */
export function BalancesGrid({ balances }: { balances: Record<Purse, string> }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Balances">
      {PURSES.map((purse) => (
        <div
          key={purse}
          className="rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 dark:border-slate-700 dark:bg-slate-950"
        >
          <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase dark:text-slate-400">
            {purseLabel(purse)}
          </dt>
          <dd className="mt-1 font-mono text-2xl font-semibold text-slate-900 tabular-nums dark:text-white">
            {balances[purse]}
          </dd>
        </div>
      ))}
    </dl>
  );
}
