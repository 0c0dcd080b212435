/**
 * The configurations the run starts one console of each (test/setup/console.ts) for the files that ask for it
 * with `sharedConsole(profile)`. A file may use one when the test needs no environment of its own and leaves no
 * state another file could see: its own session, cards, runs and browser context, no count of what the whole
 * process did (metrics, audit users, rate limits), no log line it expects to be absent.
 *
 * Each lifts the per-user limits (upstream calls, certification runs): with AUTH_MODE=none every file on it is the same user, and files run at
 * once would otherwise spend one budget between them. Tests of the rate limit start a console of their own.
 */
export const SHARED_CONSOLE_PROFILES = {
  /** The default test environment. */
  default: { RATE_LIMIT_PER_MINUTE: "100000", CERTIFICATION_RUNS_PER_HOUR: "100000" },
  /** Behind a reverse proxy on loopback that the console believes: X-Forwarded-For, -Proto and -Host count. */
  "trusted-proxy": {
    RATE_LIMIT_PER_MINUTE: "100000",
    CERTIFICATION_RUNS_PER_HOUR: "100000",
    TRUSTED_PROXIES: "127.0.0.1/32,::1/128",
  },
  /**
   * Upstream calls give up after 1.5 s (the sandbox's slow test card then ends in a 504 at once), and the secrets
   * are values of their own that a file searches for in what the browser received and the log holds.
   */
  "short-timeout": {
    RATE_LIMIT_PER_MINUTE: "100000",
    CERTIFICATION_RUNS_PER_HOUR: "100000",
    CARD_API_TIMEOUT_MS: "1500",
    SANDBOX_DEMO_SECRET: "shared-demo-secret-3f9c1e7a52b84d60",
    SESSION_SECRET: "shared-session-secret-of-the-short-timeout-console-8e2d47b1c9",
  },
} satisfies Record<string, Record<string, string>>;

export type SharedConsoleProfile = keyof typeof SHARED_CONSOLE_PROFILES;

/** Where a shared console answers, and the file its output goes to (read by `logs()`). */
export interface SharedConsoleAddress {
  url: string;
  logFile: string;
}
