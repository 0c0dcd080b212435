/**
 * The purses of a card (API specification §2.5), in the order the specification lists them. One list for the sandbox,
 * the server's response schemas and the pages. Framework-free and zod-free: the browser bundles it.
 */
export const PURSES = [
  "gift",
  "gift_rewards",
  "loyalty",
  "loyalty_rewards",
  "discount",
  "promotional",
  "punch",
  "punch_rewards",
] as const;

export type Purse = (typeof PURSES)[number];

const PURSE_LABELS: Record<Purse, string> = {
  gift: "Gift",
  gift_rewards: "Gift rewards",
  loyalty: "Loyalty",
  loyalty_rewards: "Loyalty rewards",
  discount: "Discount",
  promotional: "Promotional",
  punch: "Punch",
  punch_rewards: "Punch rewards",
};

export function isPurse(name: string): name is Purse {
  return (PURSES as readonly string[]).includes(name);
}

/** "gift_rewards" → "Gift rewards"; a key the specification does not list is shown as it is. */
export function purseLabel(purse: string): string {
  return isPurse(purse) ? PURSE_LABELS[purse] : purse;
}
