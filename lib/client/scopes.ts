/**
 * What each scope lets this console do. The specification lists the scope values (§2.2) but not which
 * endpoint needs which; the sandbox's documented rule is that both balance operations need
 * read:transactions (DESIGN.md §5). Reporting operations are outside the specification's excerpt.
 */
export const BALANCE_SCOPE = "read:transactions";

export interface ScopeInfo {
  operations: string[];
  /** True when this console can run what the scope enables. */
  usedHere: boolean;
}

const SCOPES: Record<string, ScopeInfo> = {
  "read:transactions": { operations: ["Gift Balance Inquiry", "Balance Inquiry"], usedHere: true },
  "read:reports": { operations: ["Reporting reads (not shown in the spec)"], usedHere: false },
  "export:reports": { operations: ["Report exports (not shown in the spec)"], usedHere: false },
};

export function scopeInfo(scope: string): ScopeInfo {
  return SCOPES[scope] ?? { operations: ["No operation of this console"], usedHere: false };
}
