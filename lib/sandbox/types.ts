/** The sandbox's options and its interface, apart from the engine that implements them. */
import type { SandboxClientPort } from "./registered-clients";
import type { SandboxConnection } from "./faults";

export interface SandboxOptions {
  /** Millisecond clock, injectable for expiry tests. */
  now?: () => number;
  /** HS256 key; default a random one per instance. */
  signingKey?: string;
  /** Secret of every demo client; default "demo-secret". */
  demoSecret?: string;
  /** e.g. "/sandbox" when mounted in the console; "" standalone. Stripped from the URL path. */
  basePath?: string;
  /** Delay of the slow test card, default 30000; ends early when the request's signal aborts. */
  slowResponseMs?: number;
  /** Enables the /__sandbox/* hooks (revoke-tokens, reset, stats). */
  testHooks?: boolean;
  /** Transactions kept in memory, default 50000; the oldest are forgotten beyond it. */
  maxTransactions?: number;
  /** Clients registered from outside (integration certification): looked up, armed and recorded through it. */
  clients?: SandboxClientPort;
}

export interface SandboxStats {
  /** Every POST to the token path, successful or not. */
  tokenRequests: number;
  /** Transactions recorded by Gift Balance Inquiry. */
  transactions: number;
}

export interface Sandbox {
  /**
   * `caller` (the peer's address) is what the bound of answers held back per caller counts by
   * (MAX_HELD_PER_CALLER); requests without one share a bound. `connection` is the socket's control, where the
   * hosting server gives it: a fault plan's reset resets it (without it the connection is only closed).
   */
  handle(request: Request, caller?: string, connection?: SandboxConnection): Promise<Response>;
  /** Back to the fixture state: no transactions, no valid tokens, counters zero. */
  reset(): void;
  /** Every token issued so far becomes invalid (401 invalid_token). */
  revokeTokens(): void;
  stats(): SandboxStats;
}
