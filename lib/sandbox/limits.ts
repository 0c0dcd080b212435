/** Bounds the sandbox sets where the specification shows none (documented on the sandbox page). */

/** Bodies above this are refused with 413: the sandbox must not buffer unbounded input. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Transactions kept in memory by default; beyond it the oldest are forgotten (their Request Ids become free). */
export const MAX_TRANSACTIONS = 50_000;
