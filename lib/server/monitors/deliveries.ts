/**
 * Sends queued alerts to ALERT_WEBHOOK_URL (server configuration only: nothing a user types chooses where the
 * console posts), signed when ALERT_WEBHOOK_SECRET is set; a failure is tried again with backoff for an hour,
 * then given up and shown on the monitor.
 */
import "server-only";
import { signature } from "./alert";
import { nextAttempt } from "./schedule";
import type { DeliveryRow, MonitorStore } from "./store";

/** One attempt's bound: a webhook that hangs must not hold the next alert. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** How long a claimed delivery is this instance's before another may try it. */
const CLAIM_MS = 60_000;

export interface DeliveryDeps {
  store: MonitorStore;
  webhookUrl: string;
  webhookSecret: string | undefined;
  now: () => Date;
  fetch: typeof fetch;
}

/** POSTs one alert; resolves with the failure's description, or null when the receiver took it (2xx). */
async function postAlert(deps: DeliveryDeps, body: string): Promise<string | null> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (deps.webhookSecret) headers["X-Console-Signature"] = signature(body, deps.webhookSecret);
  try {
    const response = await deps.fetch(deps.webhookUrl, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    await response.body?.cancel().catch(() => undefined);
    return response.ok ? null : `The webhook answered HTTP ${response.status}.`;
  } catch (error) {
    const cause =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "";
    // The address itself may be a secret (Slack, Teams): it is never named.
    return `The webhook did not answer${cause ? ` (${cause.replace(/https?:\/\/\S+/g, "…")})` : ""}.`;
  }
}

/** Tries every delivery due now, once each; answers how many were delivered. */
export async function deliverDue(deps: DeliveryDeps): Promise<number> {
  const now = deps.now();
  const due = await deps.store.claimDeliveries(now, new Date(now.getTime() + CLAIM_MS));
  let delivered = 0;
  for (const delivery of due) {
    if (await attempt(deps, delivery)) delivered += 1;
  }
  return delivered;
}

async function attempt(deps: DeliveryDeps, delivery: DeliveryRow): Promise<boolean> {
  const failure = await postAlert(deps, delivery.body);
  const attempts = delivery.attempts + 1;
  if (failure === null) {
    await deps.store.settleDelivery(delivery.id, {
      state: "delivered",
      attempts,
      nextAttemptAt: null,
      lastError: null,
    });
    return true;
  }
  const next = nextAttempt(delivery.createdAt, attempts, deps.now());
  await deps.store.settleDelivery(delivery.id, {
    state: next ? "pending" : "failed",
    attempts,
    nextAttemptAt: next,
    lastError: failure.slice(0, 300),
  });
  return false;
}
