/**
 * What each scope lets this console do. The specification lists the scope values (API specification §2.2) but not which
 * endpoint needs which; the operation registry holds the sandbox's documented rule (docs/design.md §5).
 * Reporting operations are outside the specification's excerpt.
 */
import { operationsNeeding } from "@/lib/shared/operations";

export { TRANSACTIONS_SCOPE as BALANCE_SCOPE } from "@/lib/shared/operations";

export interface ScopeInfo {
  operations: string[];
  /** True when this console can run what the scope enables. */
  usedHere: boolean;
}

const OUTSIDE_THE_CONSOLE: Record<string, ScopeInfo> = {
  "read:reports": { operations: ["Reporting reads (not shown in the spec)"], usedHere: false },
  "export:reports": { operations: ["Report exports (not shown in the spec)"], usedHere: false },
};

export function scopeInfo(scope: string): ScopeInfo {
  // The chips name what a person runs with the scope; the lookup only reads back what a gift inquiry recorded.
  const operations = operationsNeeding(scope).filter((spec) => spec.name !== "transaction_lookup");
  if (operations.length > 0) return { operations: operations.map((spec) => spec.label), usedHere: true };
  return OUTSIDE_THE_CONSOLE[scope] ?? { operations: ["No operation of this console"], usedHere: false };
}
