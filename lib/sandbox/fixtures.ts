/**
 * The sandbox's seed data (docs/design.md §5): demo clients, test cards and their behaviours.
 * The one source for the sandbox itself, its documentation page and its tests. Holds no secret:
 * the demo clients' secret is configuration (`SANDBOX_DEMO_SECRET`, default "demo-secret").
 */
import { TRANSACTIONS_SCOPE } from "@/lib/shared/operations";
import { PURSES, type Purse } from "@/lib/shared/purses";

export const DEFAULT_DEMO_SECRET = "demo-secret";

export interface DemoClient {
  clientId: string;
  scopes: readonly string[];
  expiresIn: number;
  description: string;
}

export const DEMO_CLIENTS: readonly DemoClient[] = [
  {
    clientId: "demo-client",
    scopes: ["read:reports", TRANSACTIONS_SCOPE, "export:reports"],
    expiresIn: 7200,
    description: "Every scope; the usual two-hour token.",
  },
  {
    clientId: "demo-short-lived",
    scopes: [TRANSACTIONS_SCOPE],
    expiresIn: 60,
    description: "Tokens live one minute: watch the console renew them.",
  },
  {
    clientId: "demo-reports-only",
    scopes: ["read:reports"],
    expiresIn: 7200,
    description: "Lacks read:transactions: both balance operations answer 403.",
  },
];

export { PURSES, type Purse };

/** Balances in integer cents: no floating point ever touches money. */
export type PurseCents = Readonly<Record<Purse, number>>;

/**
 * - `active`: answers normally.
 * - `inactive`: Gift Balance Inquiry is declined `card_inactive`; Balance Inquiry still answers 200.
 * - `server_error`: 500 with a JSON:API error.
 * - `slow`: answers normally, but only after `slowResponseMs` (30 s by default).
 * - `not_json`: 200/201 with an HTML body instead of JSON.
 * - `rate_limited`: 429 with `Retry-After: 2`.
 */
export type CardBehaviour = "active" | "inactive" | "server_error" | "slow" | "not_json" | "rate_limited";

export interface TestCard {
  cardNumber: string;
  behaviour: CardBehaviour;
  purses: PurseCents;
  description: string;
}

const zeroPurses: PurseCents = {
  gift: 0,
  gift_rewards: 0,
  loyalty: 0,
  loyalty_rewards: 0,
  discount: 0,
  promotional: 0,
  punch: 0,
  punch_rewards: 0,
};

const fullPurses: PurseCents = {
  gift: 2500,
  gift_rewards: 500,
  loyalty: 12000,
  loyalty_rewards: 1000,
  discount: 0,
  promotional: 1500,
  punch: 700,
  punch_rewards: 100,
};

export const TEST_CARDS: readonly TestCard[] = [
  {
    cardNumber: "6006491000000001",
    behaviour: "active",
    purses: fullPurses,
    description: "Active, with a balance in most purses.",
  },
  {
    cardNumber: "6006491000000019",
    behaviour: "active",
    purses: zeroPurses,
    description: "Active, every purse 0.00.",
  },
  {
    cardNumber: "6006491000000027",
    behaviour: "inactive",
    purses: { ...zeroPurses, gift: 1000 },
    description:
      "Inactive: Gift Balance Inquiry is declined card_inactive; Balance Inquiry still answers 200.",
  },
  {
    cardNumber: "6006491000000035",
    behaviour: "server_error",
    purses: fullPurses,
    description: "The sandbox answers 500 with a JSON:API error.",
  },
  {
    cardNumber: "6006491000000043",
    behaviour: "slow",
    purses: fullPurses,
    description: "The sandbox answers after 30 seconds, longer than the console's timeout.",
  },
  {
    cardNumber: "6006491000000050",
    behaviour: "not_json",
    purses: fullPurses,
    description: "The sandbox answers 200/201 with an HTML body that is not JSON.",
  },
  {
    cardNumber: "6006491000000068",
    behaviour: "rate_limited",
    purses: fullPurses,
    description: "The sandbox answers 429 with Retry-After: 2.",
  },
];

export function findDemoClient(clientId: string): DemoClient | undefined {
  return DEMO_CLIENTS.find((client) => client.clientId === clientId);
}

export function findTestCard(cardNumber: string): TestCard | undefined {
  return TEST_CARDS.find((card) => card.cardNumber === cardNumber);
}

/**
 * A Request Id that Lookup Transaction by Request Id always finds for a demo client (a Gift Balance Inquiry of
 * the first test card): the example of the generated documents, so that an imported lookup works at once.
 */
export const EXAMPLE_REQUEST_ID = "example-gift-balance-inquiry";
