/**
 * The embedded sandbox's test hooks (SANDBOX_TEST_HOOKS=on, below the console's /sandbox): what it has served,
 * and arming it to revoke every token or to forget everything. Each asserts nothing itself: the answer's status
 * is the test's to check where it matters.
 */
const hooks = (consoleUrl: string) => `${consoleUrl}/sandbox/__sandbox`;

export interface SandboxStats {
  token_requests: number;
  transactions: number;
}

/** How many token requests and card transactions the sandbox has served since its last reset. */
export async function sandboxStats(consoleUrl: string): Promise<SandboxStats> {
  const response = await fetch(`${hooks(consoleUrl)}/stats`);
  return (await response.json()) as SandboxStats;
}

/** Every token the sandbox issued stops working: the next call with one is answered 401. */
export function revokeSandboxTokens(consoleUrl: string): Promise<Response> {
  return fetch(`${hooks(consoleUrl)}/revoke-tokens`, { method: "POST" });
}

/** The sandbox forgets its tokens, transactions and counts. */
export function resetSandbox(consoleUrl: string): Promise<Response> {
  return fetch(`${hooks(consoleUrl)}/reset`, { method: "POST" });
}
