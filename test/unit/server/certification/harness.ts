/**
 * A certification run against an in-process sandbox (optionally wrapped to misbehave), through the
 * console's own card API client. The sandbox and the run share one clock, so waiting for a token to
 * expire is a step of the clock, not of time.
 */
import { createCardApiClient } from "@/lib/server/card-api/client";
import { inProcessTransport } from "@/lib/server/card-api/transport";
import type { CertificationEnvironment } from "@/lib/server/certification/context";
import type { CertificationProfile } from "@/lib/server/certification/profile";
import { InMemoryRunStore } from "@/lib/server/certification/run-store";
import { runCertification } from "@/lib/server/certification/runner";
import type { RunEvent, RunState } from "@/lib/shared/certification-contract";
import { createSandbox } from "@/lib/sandbox";

const BASE = "http://sandbox.test";

export const PROFILE: CertificationProfile = {
  primary: { clientId: "demo-client", clientSecret: "demo-secret" },
  shortLived: { clientId: "demo-short-lived", clientSecret: "demo-secret" },
  withoutScope: { clientId: "demo-reports-only", clientSecret: "demo-secret" },
  cards: { active: "6006491000000001", declined: "6006491000000027" },
  locationId: "cert-location-1",
  transactionLookup: true,
};

export type Handler = (request: Request) => Promise<Response>;

function fakeClock(start = Date.parse("2026-01-01T00:00:00.000Z")) {
  let current = start;
  return {
    now: () => current,
    sleep: async (ms: number) => {
      current += ms;
    },
  };
}

export async function certify(
  options: {
    wrap?: (handler: Handler) => Handler;
    caseIds?: string[];
    profile?: Partial<CertificationProfile>;
    environmentName?: "embedded" | "sandbox" | "production";
    allowProductionGift?: boolean;
    maxExpiryWaitMs?: number;
    revoke?: boolean;
    /** A production instance behind the same token endpoint: the same sandbox, or another one. */
    sibling?: "same" | "other";
    /** The sandbox's demo clients' secret (default "demo-secret"). */
    demoSecret?: string;
    /** Told of every save of the run, as the console's store is. */
    onSave?: (run: RunState) => void;
  } = {},
) {
  const clock = fakeClock();
  const sandbox = createSandbox({ now: clock.now, demoSecret: options.demoSecret });
  const handler: Handler = (request) => sandbox.handle(request);
  const client = createCardApiClient({
    transport: inProcessTransport(options.wrap ? options.wrap(handler) : handler),
    authUrl: BASE,
    baseUrl: BASE,
    timeoutMs: 5000,
  });
  const siblingSandbox = options.sibling === "other" ? createSandbox({ now: clock.now }) : sandbox;
  const sibling = options.sibling && {
    name: "production" as const,
    baseUrl: "http://production.test",
    client: createCardApiClient({
      transport: inProcessTransport((request) => siblingSandbox.handle(request)),
      authUrl: BASE,
      baseUrl: "http://production.test",
      timeoutMs: 5000,
    }),
  };
  const environment: CertificationEnvironment = {
    name: options.environmentName ?? "embedded",
    authUrl: BASE,
    baseUrl: BASE,
    transport: "embedded",
    client,
    ...(options.revoke === false ? {} : { revokeTokens: () => sandbox.revokeTokens() }),
    ...(sibling ? { sibling } : {}),
  };
  const events: RunEvent[] = [];
  const store = new InMemoryRunStore();
  const run = await runCertification({
    environment,
    profile: { ...PROFILE, ...options.profile },
    operator: "tester@example.test",
    allowProductionGift: options.allowProductionGift ?? false,
    renewSkewSeconds: 120,
    maxExpiryWaitMs: options.maxExpiryWaitMs ?? 120_000,
    caseIds: options.caseIds,
    store: options.onSave
      ? {
          save: async (saved) => {
            options.onSave!(structuredClone(saved));
            await store.save(saved);
          },
          get: (id) => store.get(id),
          list: () => store.list(),
        }
      : store,
    onEvent: (event) => events.push(event),
    now: clock.now,
    sleep: clock.sleep,
  });
  return { run, events, store, sandbox };
}

export function verdicts(run: { results: { id: string; verdict: string }[] }): Record<string, string> {
  return Object.fromEntries(run.results.map((result) => [result.id, result.verdict]));
}
