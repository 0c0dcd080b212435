import { PURSES, purseLabel, type Purse } from "@/lib/shared/purses";

/** The eight purses, large and in the specification's order, for reading aloud on a call. */
export function BalancesGrid({ balances }: { balances: Record<Purse, string> }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Balances">
      {PURSES.map((purse) => (
        <div key={purse} className="rounded-lg border border-raised bg-inset px-4 py-3">
          <dt className="text-xs font-medium tracking-wide text-muted uppercase">{purseLabel(purse)}</dt>
          <dd className="mt-1 font-mono text-2xl font-semibold text-fg tabular-nums">{balances[purse]}</dd>
        </div>
      ))}
    </dl>
  );
}
