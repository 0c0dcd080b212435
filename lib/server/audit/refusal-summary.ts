/**
 * The one row that sums up a minute of refusals (a signed-in user's on one route, or an anonymous address's):
 * its reason is the commonest one, its details the counts, shared by both tallies so the two rows read alike.
 */
import "server-only";

export interface RefusalTally {
  minute: number;
  count: number;
  throttled: number;
  reasons: Map<string, number>;
}

export function commonestReason(tally: RefusalTally, fallback: string): string {
  return [...tally.reasons].sort((a, b) => b[1] - a[1])[0]?.[0] ?? fallback;
}

export function refusalSummaryDetails(tally: RefusalTally) {
  return {
    count: tally.count,
    throttled: tally.throttled,
    minute: new Date(tally.minute).toISOString(),
    reasons: [...tally.reasons]
      .map(([name, count]) => `${name}:${count}`)
      .join(" ")
      .slice(0, 500),
  };
}
