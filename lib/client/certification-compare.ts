/**
 * A run compared with an earlier one: which cases changed verdict (e.g. sandbox then production), which
 * ran in only one of them. Isomorphic: the runs page computes it from two runs' verdicts.
 */
import type { Verdict } from "@/lib/shared/certification-contract";

interface VerdictChange {
  id: string;
  before: Verdict | null;
  after: Verdict | null;
  kind: "changed" | "same" | "only_before" | "only_after";
}

export interface RunComparison {
  changes: VerdictChange[];
  changed: number;
  same: number;
  /** Cases that ran in only one of the two runs (a partial run, or cases added to the catalogue). */
  oneSided: number;
}

/** "2 cases changed verdict, 1 ran in only one run (22 the same)." — every differing row counted. */
export function comparisonSentence({ changed, same, oneSided }: RunComparison): string {
  const cases = (count: number) => `${count} case${count === 1 ? "" : "s"}`;
  const parts = [changed === 0 ? "No case changed verdict" : `${cases(changed)} changed verdict`];
  if (oneSided > 0) parts.push(`${cases(oneSided)} ran in only one of the runs`);
  return `${parts.join(", ")} (${same} the same).`;
}

/** Case order: the later run's, then cases only the earlier run had. */
export function compareVerdicts(
  before: readonly { id: string; verdict: Verdict }[],
  after: readonly { id: string; verdict: Verdict }[],
): RunComparison {
  const earlier = new Map(before.map((item) => [item.id, item.verdict]));
  const later = new Map(after.map((item) => [item.id, item.verdict]));
  const ids = [...later.keys(), ...[...earlier.keys()].filter((id) => !later.has(id))];
  const changes = ids.map((id): VerdictChange => {
    const was = earlier.get(id) ?? null;
    const now = later.get(id) ?? null;
    const kind =
      was === null ? "only_after" : now === null ? "only_before" : was === now ? "same" : "changed";
    return { id, before: was, after: now, kind };
  });
  return {
    changes,
    changed: changes.filter((change) => change.kind === "changed").length,
    same: changes.filter((change) => change.kind === "same").length,
    oneSided: changes.filter((change) => change.kind === "only_before" || change.kind === "only_after")
      .length,
  };
}

/** The catalogue's groups, in order, with what they prove. */
export const CASE_GROUPS = [
  {
    prefix: "TOK",
    title: "Tokens",
    description: "Token request, reuse, renewal (API specification §2.2, §4.1, §5)",
  },
  {
    prefix: "AUTH",
    title: "Authorization",
    description: "401 and 403 answers (API specification §4.2, §5.5, §7)",
  },
  {
    prefix: "GBI",
    title: "Gift Balance Inquiry",
    description: "Records a transaction (API specification §2.4, §4.3)",
  },
  { prefix: "BI", title: "Balance Inquiry", description: "Read-only lookup (API specification §2.5, §4.4)" },
  {
    prefix: "VER",
    title: "Versioning",
    description: "Version paths and meta.version (API specification §9)",
  },
] as const;

export function caseGroup(id: string): string {
  return id.split("-")[0] ?? id;
}
