/**
 * Sends queued alerts to ALERT_WEBHOOK_URL (server configuration only: nothing a user types chooses where the
 * console posts), apart from the schedule (docs/design.md §13): a slow or hanging receiver holds at most
 * `maxInFlight` attempts of this instance, each ended after `attemptTimeoutMs`, and never a run. Rows are
 * claimed from the database a few at a time, so of N instances exactly one attempts each; a failed attempt is
 * tried again at about 1, 5, 15 and 40 minutes, then the delivery is given up.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { Counter } from "prom-client";
import type { DeliveryAttempt } from "@/lib/server/database/schema";
import { logger } from "@/lib/server/util/logger";
import { nextAttempt } from "./schedule";
import { alertHeaders, alertSigners } from "./signing";
import type { DeliveryRow, MonitorStore } from "./store";

/** One attempt's bound (docs/design.md §13). */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** Attempts under way at once on one console. */
const MAX_IN_FLIGHT = 4;
/** How often queued deliveries (retries coming due, another instance's lapsed claims) are looked for. */
const POLL_MS = 5_000;
/** A claim outlives its attempt by this much: no other instance takes a row whose attempt may still run. */
const CLAIM_MARGIN_MS = 30_000;

export interface DelivererDeps {
  store: MonitorStore;
  webhookUrl: string;
  secrets: readonly (string | undefined)[];
  now: () => Date;
  fetch: typeof fetch;
  /** `console_alert_deliveries_total{state}`: each attempt, by the state it left the delivery in. */
  counter?: Pick<Counter<"state">, "inc">;
  attemptTimeoutMs?: number;
  maxInFlight?: number;
}

interface Outcome {
  status: number | null;
  error?: string;
}

/** Why an attempt failed, without the address (Slack's and Teams' hold a secret) or anything else it carries. */
function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `The receiver did not answer within ${Math.round(timeoutMs / 1000)} s.`;
  }
  const cause =
    error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "";
  return `The receiver could not be reached${cause ? ` (${cause.replace(/https?:\/\/\S+/g, "…").slice(0, 200)})` : ""}.`;
}

export class AlertDeliverer {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly signers;
  private readonly timeoutMs: number;
  private readonly maxInFlight: number;
  private filling: Promise<void> | undefined;
  private again = false;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly deps: DelivererDeps) {
    this.signers = alertSigners(deps.secrets);
    this.timeoutMs = deps.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.maxInFlight = deps.maxInFlight ?? MAX_IN_FLIGHT;
  }

  /** Attempts under way now on this instance. */
  get busy(): number {
    return this.inFlight.size;
  }

  /** Fills the free attempt slots with due deliveries; resolves once they are claimed, not once attempted. */
  kick(): Promise<void> {
    if (this.stopping.signal.aborted) return Promise.resolve();
    if (this.filling) {
      this.again = true;
      return this.filling;
    }
    this.filling = this.fill()
      .catch((error: unknown) =>
        logger.warn(
          { error: error instanceof Error ? error.message : String(error) },
          "alert deliveries not claimed",
        ),
      )
      .finally(() => {
        this.filling = undefined;
        if (this.again) {
          this.again = false;
          void this.kick();
        }
      });
    return this.filling;
  }

  private async fill(): Promise<void> {
    const free = this.maxInFlight - this.inFlight.size;
    if (free <= 0) return;
    const now = this.deps.now();
    const claim = randomUUID();
    const leaseUntil = new Date(now.getTime() + this.timeoutMs + CLAIM_MARGIN_MS);
    for (const delivery of await this.deps.store.claimDeliveries(now, free, claim, leaseUntil)) {
      const attempt = this.attempt(delivery, claim).finally(() => {
        this.inFlight.delete(delivery.id);
        void this.kick();
      });
      this.inFlight.set(delivery.id, attempt);
    }
  }

  private async post(delivery: DeliveryRow, at: Date): Promise<Outcome> {
    try {
      const response = await this.deps.fetch(this.deps.webhookUrl, {
        method: "POST",
        headers: alertHeaders(delivery.id, delivery.body, at, this.signers),
        body: delivery.body,
        redirect: "manual",
        signal: AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.stopping.signal]),
      });
      await response.body?.cancel().catch(() => undefined);
      return response.ok
        ? { status: response.status }
        : { status: response.status, error: `The receiver answered HTTP ${response.status}.` };
    } catch (error) {
      return { status: null, error: failureOf(error, this.timeoutMs) };
    }
  }

  private async attempt(delivery: DeliveryRow, claim: string): Promise<void> {
    const { store } = this.deps;
    const at = this.deps.now();
    const started = performance.now();
    const outcome = await this.post(delivery, at);
    // Stopping cut it short: not the receiver's failure; another instance (or the next start) tries it.
    if (this.stopping.signal.aborted) {
      await store.releaseDelivery(delivery.id, claim).catch(() => undefined);
      return;
    }
    const record: DeliveryAttempt = {
      at: at.toISOString(),
      status: outcome.status,
      ms: Math.round(performance.now() - started),
      ...(outcome.error ? { error: outcome.error } : {}),
    };
    const attempts = delivery.attempts + 1;
    const next = outcome.error ? nextAttempt(delivery.retryFrom, attempts, this.deps.now()) : null;
    const state = !outcome.error ? "delivered" : next ? "pending" : "failed";
    const settled = await store
      .settleDelivery(
        delivery.id,
        claim,
        { state, attempts, nextAttemptAt: next, lastError: outcome.error ?? null },
        record,
      )
      .catch((error: unknown) => {
        logger.warn(
          { delivery_id: delivery.id, error: error instanceof Error ? error.message : String(error) },
          "alert delivery not recorded",
        );
        return false;
      });
    if (settled) this.deps.counter?.inc({ state });
  }

  /** Starts looking for due deliveries every few seconds (once); the timer keeps no process alive. */
  start(): void {
    if (this.timer || this.stopping.signal.aborted) return;
    void this.kick();
    this.timer = setInterval(() => void this.kick(), POLL_MS);
    this.timer.unref?.();
  }

  /** Stops: attempts under way are cut short and their rows given back unattempted. */
  async stop(): Promise<void> {
    this.stopping.abort();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.filling;
    await Promise.allSettled([...this.inFlight.values()]);
  }
}
