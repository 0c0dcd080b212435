import { BALANCE_SCOPE, scopeInfo } from "@/lib/client/scopes";
import { Alert } from "@/components/ui/alert";
import { cx } from "@/components/ui/class-names";

/** Each scope as a chip with the operations it enables. */
export function ScopeList({ scopes }: { scopes: string[] }) {
  return (
    <div className="space-y-3">
      {scopes.length === 0 ? (
        <p className="text-sm text-muted">The token carries no scope.</p>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2 xl:grid-cols-3" aria-label="Scopes">
          {scopes.map((scope) => {
            const info = scopeInfo(scope);
            return (
              <li key={scope} className="rounded-lg border border-raised px-3 py-2" data-testid="scope-chip">
                <span
                  className={cx(
                    "inline-flex rounded-full px-2.5 py-0.5 font-mono text-xs font-medium ring-1 ring-inset",
                    info.usedHere
                      ? "bg-accent-soft text-accent-strong ring-accent"
                      : "bg-raised text-body ring-neutral",
                  )}
                >
                  {scope}
                </span>
                <p className="mt-1.5 text-xs text-muted">
                  <span className="sr-only">Enables: </span>
                  {info.operations.join(" · ")}
                </p>
              </li>
            );
          })}
        </ul>
      )}
      {!scopes.includes(BALANCE_SCOPE) ? (
        <Alert tone="warning" title={`No ${BALANCE_SCOPE} scope`}>
          Both balance inquiries will answer 403 Forbidden with this token (API specification §7: the token is
          valid but lacks the scope required by the endpoint).
        </Alert>
      ) : null}
    </div>
  );
}
