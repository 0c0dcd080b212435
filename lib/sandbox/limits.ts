/** Bounds the sandbox sets where the specification shows none (documented on the sandbox page). */

/** Bodies above this are refused with 413: the sandbox must not buffer unbounded input. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Transactions kept in memory by default; beyond it the oldest are forgotten (their Request Ids become free). */
export const MAX_TRANSACTIONS = 50_000;

/**
 * Answers held back at once (the slow test card, a registered client's armed delay) per caller and in all:
 * beyond them the sandbox answers at once (429 per caller, 503 in all, with Retry-After) instead of holding
 * another connection for the whole delay.
 */
export const MAX_HELD_PER_CALLER = 8;
export const MAX_HELD = 64;
