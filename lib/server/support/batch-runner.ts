/**
 * Runs support batches on the server: at most `concurrency` Balance Inquiries at once per batch, each card
 * claimed from the database (batch-store), a 429 answered by deferring that card for its Retry-After (a bounded
 * number of attempts, each wait capped, within a deadline per card), one audit row per card. The owner's
 * per-user rate limit is shared with their single lookups: when it is used up the batch pauses (no card fails
 * for it) and goes on when the window ends. A batch's cards share one token, kept in memory by the run (a call
 * context over the batch's environment and credentials; no session is involved). A batch this instance is not
 * running is taken over when its runner's lease has lapsed (`ensureRunning`, called whenever someone looks at
 * the batch), so a batch whose instance died is finished by another.
 */
import "server-only";
import type { EnvironmentName, ExchangeRecord } from "@/lib/shared/contracts";
import type { AuditLog } from "@/lib/server/audit";
import type { Role } from "@/lib/server/identity/roles";
import type { Database } from "@/lib/server/database";
import { ApiError } from "@/lib/server/util/errors";
import { logger } from "@/lib/server/util/logger";
import type { SessionState } from "@/lib/server/session";
import { memoryToken, type CallContext, type TokenPlace } from "@/lib/server/token/call-context";
import type { InquiryInput } from "@/lib/server/inquiry/operations";
import { lookupAuditEntry, writeSupportAudit, type AuditActor } from "./audit-rows";
import {
  batchStatus,
  claimCards,
  returnCard,
  claimRunner,
  completeIfFinished,
  deferCard,
  finishCard,
  nextWake,
  releaseRunner,
  renewRunner,
  type BatchRow,
  type ClaimedCard,
} from "./batch-store";
import type { CardVault } from "./card-vault";
import { supportInquiryInput } from "./lookup";
import type { ConsoleMetrics } from "@/lib/server/metrics";
import { classifyNoAnswer, classifyRecord, type ClassifiedLookup } from "./outcome";

/** A Balance Inquiry of one batch card in the batch's call context (lib/server/inquiry/operations). */
export type DetachedInquiry = (call: CallContext, input: InquiryInput) => Promise<ExchangeRecord>;

/** How a batch's cards are looked up: its environment and credentials, as a session would hold them. */
type BatchCredentialsState = Pick<SessionState, "environment" | "credentials">;

/**
 * A batch card's call context: the batch's environment and credentials, resolved for that card, and the token
 * its cards share (lib/server/token/call-context `fromState`).
 */
export type BatchCallContext = (state: BatchCredentialsState, tokens: TokenPlace) => CallContext;

export interface BatchRunnerOptions {
  db: Database;
  auditLog: Pick<AuditLog, "append">;
  vault: CardVault;
  inquire: DetachedInquiry;
  callContext: BatchCallContext;
  /** The process's metrics (none in tests that build a runner alone). */
  metrics?: ConsoleMetrics;
  /** SUPPORT_BATCH_CONCURRENCY. */
  concurrency: number;
  /** Attempts per card when the upstream answers 429 (the last 429 is the card's result). */
  maxAttempts?: number;
  /**
   * The longest Retry-After the runner honours between two attempts of a card (default 30 s): an upstream may ask
   * for up to an hour, which would hold the batch that long.
   */
  maxRetryWaitMs?: number;
  /**
   * How long a card may take from its first attempt, its retries' waits included (default 90 s): a retry that
   * would start later is not made, and the card is given up on with its last 429. Counted from the first
   * attempt this instance made (a batch taken over by another instance starts the count again).
   */
  cardDeadlineMs?: number;
  /** How long a runner's claim on a batch lasts without renewal. */
  runnerLeaseMs?: number;
  /** How long a card's claim lasts (longer than the upstream timeout plus a token request). */
  cardLeaseMs?: number;
  now?: () => number;
  /**
   * Called before each card's upstream call: the per-user rate limit (RATE_LIMIT_PER_MINUTE), shared with the
   * user's single lookups. A `rate_limited` ApiError pauses the batch until its `retry_after_seconds` (the card
   * goes back unchanged, not counted as an attempt); any other error fails that card.
   */
  beforeCall?: (actor: AuditActor) => Promise<void>;
}

/** `credentials` column: how the cards are looked up. */
export type StoredCredentials =
  { kind: "server" } | { kind: "demo" } | { kind: "user"; clientId: string; clientSecret: string };

export function storeCredentials(credentials: StoredCredentials, vault: CardVault): string {
  if (credentials.kind !== "user") return credentials.kind;
  return `user:${vault.seal(JSON.stringify({ id: credentials.clientId, s: credentials.clientSecret }))}`;
}

function credentialsStateFor(batch: BatchRow, vault: CardVault): BatchCredentialsState {
  const environment = batch.environment as EnvironmentName;
  const stored = batch.credentials;
  if (stored === "demo") return { environment, credentials: { kind: "demo" } };
  if (stored?.startsWith("user:")) {
    const { id, s } = JSON.parse(vault.open(stored.slice(5))) as { id: string; s: string };
    return { environment, credentials: { kind: "user", clientId: id, clientSecret: s } };
  }
  return { environment };
}

/** One running batch: who runs it, how its cards get their token, and until when the rate limit holds it. */
interface BatchRun {
  batch: BatchRow;
  actor: AuditActor;
  credentials: BatchCredentialsState;
  /** The token every card of this run shares (in memory only). */
  tokens: TokenPlace;
  /** Until when the owner's rate limit holds the batch back (epoch ms). */
  paused: { until: number };
}

export interface BatchRunner {
  /** Starts running the batch here unless this instance already does or another instance holds it. */
  ensureRunning(batchId: string): Promise<void>;
  /** Resolves when this instance's run of the batch ends (immediately when it runs none). */
  settled(batchId: string): Promise<void>;
  /** Wakes a waiting run so it sees a cancellation at once. */
  wake(batchId: string): void;
}

type RunnerSettings = Required<Omit<BatchRunnerOptions, "beforeCall" | "metrics">> &
  Pick<BatchRunnerOptions, "beforeCall" | "metrics">;

function withDefaults(options: BatchRunnerOptions): RunnerSettings {
  return {
    ...options,
    maxAttempts: options.maxAttempts ?? 3,
    maxRetryWaitMs: options.maxRetryWaitMs ?? 30_000,
    cardDeadlineMs: options.cardDeadlineMs ?? 90_000,
    runnerLeaseMs: options.runnerLeaseMs ?? 30_000,
    cardLeaseMs: options.cardLeaseMs ?? 60_000,
    now: options.now ?? Date.now,
  };
}

/** A lookup that stopped before an answer: the card fails with the error's message. */
function failedLookup(batch: BatchRow, card: ClaimedCard, error: unknown): ClassifiedLookup {
  const noAnswer = classifyNoAnswer(error);
  if (noAnswer) return noAnswer;
  if (!(error instanceof ApiError))
    logger.error(
      { batch: batch.id, position: card.position, error: String(error) },
      "support batch card failed",
    );
  return {
    outcome: "upstream_error",
    message:
      error instanceof ApiError ? error.message : "The lookup failed unexpectedly; the error was logged.",
    balances: null,
    upstreamStatus: null,
    retryAfterSeconds: null,
  };
}

/**
 * Null when the call may go upstream now; else how long the batch waits (the rate limit's Retry-After). Other
 * errors are thrown (the card fails with them).
 */
async function admitted(settings: RunnerSettings, actor: AuditActor): Promise<number | null> {
  try {
    await settings.beforeCall?.(actor);
    return null;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "rate_limited") throw error;
    const seconds = Number(
      (error.details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds,
    );
    return (Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000;
  }
}

async function lookUp(
  settings: RunnerSettings,
  run: BatchRun,
  card: ClaimedCard,
  cardNumber: string,
): Promise<ClassifiedLookup | { heldMs: number }> {
  try {
    const heldMs = await admitted(settings, run.actor);
    if (heldMs !== null) return { heldMs };
    // The context is resolved per card, so that an environment or credentials gone since fail that card only.
    const call = settings.callContext(run.credentials, run.tokens);
    const environment = run.batch.environment as EnvironmentName;
    return classifyRecord(await settings.inquire(call, supportInquiryInput(cardNumber, environment)));
  } catch (error) {
    return failedLookup(run.batch, card, error);
  }
}

/** Writes a card's final result and, when this runner wrote it, its audit row. */
async function finish(
  settings: RunnerSettings,
  run: BatchRun,
  card: ClaimedCard,
  cardNumber: string,
  final: ClassifiedLookup,
): Promise<void> {
  const { db, now } = settings;
  const { batch } = run;
  const written = await finishCard(
    db,
    batch.id,
    card.position,
    {
      outcome: final.outcome,
      balances: final.balances,
      upstreamStatus: final.upstreamStatus,
      error: final.outcome === "found" ? null : final.message,
    },
    new Date(now()),
  );
  if (!written) return;
  settings.metrics?.batchCards.inc({ outcome: final.outcome });
  await writeSupportAudit(
    settings.auditLog,
    lookupAuditEntry({
      actor: run.actor,
      environment: batch.environment as EnvironmentName,
      cardNumber,
      outcome: final.outcome,
      upstreamStatus: final.upstreamStatus,
      reason: batch.reason,
      batch: { id: batch.id, position: card.position, line: card.line },
    }),
  );
}

/** Retries after a 429 (deadlines and waits per card), on this runner's clock. */
function createRetryPolicy(settings: RunnerSettings) {
  const { now, maxAttempts, maxRetryWaitMs, cardDeadlineMs } = settings;
  /** When each card of a running batch was first tried here (`batchId:position` → epoch ms). */
  const firstTried = new Map<string, number>();
  return {
    /**
     * After a 429: when to try the card again (its Retry-After, at most `maxRetryWaitMs`), or null when it is
     * given up on (out of attempts, or the retry would start past the card's deadline).
     */
    retryAt(batchId: string, card: ClaimedCard, result: ClassifiedLookup): number | null {
      const key = `${batchId}:${card.position}`;
      const first = firstTried.get(key) ?? now();
      firstTried.set(key, first);
      const at = now() + Math.min((result.retryAfterSeconds ?? 1) * 1000, maxRetryWaitMs);
      if (card.attempts < maxAttempts && at <= first + cardDeadlineMs) return at;
      firstTried.delete(key);
      return null;
    },
    /** The result a card keeps when the runner stops retrying it: the last 429, and why it stopped. */
    gaveUp(card: ClaimedCard, result: ClassifiedLookup): ClassifiedLookup {
      const asked =
        result.retryAfterSeconds === null ? "" : ` (its last Retry-After: ${result.retryAfterSeconds} s)`;
      return {
        ...result,
        message:
          `Gave up after ${card.attempts} attempt${card.attempts === 1 ? "" : "s"}: the card service kept ` +
          `answering 429${asked}; the console waits at most ${maxRetryWaitMs / 1000} s per retry and ` +
          `${cardDeadlineMs / 1000} s per card. Look this card up again later.`,
      };
    },
  };
}

type RetryPolicy = ReturnType<typeof createRetryPolicy>;

/** Claims and looks up cards one at a time until none is left to claim now (or the rate limit holds the batch). */
async function worker(settings: RunnerSettings, retries: RetryPolicy, run: BatchRun): Promise<void> {
  const { db, vault, now, cardLeaseMs } = settings;
  const { batch, paused } = run;
  for (;;) {
    if (now() < paused.until) return;
    const [card] = await claimCards(db, batch.id, 1, new Date(now()), cardLeaseMs);
    if (!card) return;
    const cardNumber = vault.open(card.cardSealed);
    const result = await lookUp(settings, run, card, cardNumber);
    if ("heldMs" in result) {
      // The owner's rate limit is used up: the card goes back as it was, and the batch waits for the window.
      paused.until = Math.max(paused.until, now() + result.heldMs);
      await returnCard(db, batch.id, card.position);
      return;
    }
    let final = result;
    if (result.outcome === "rate_limited") {
      const at = retries.retryAt(batch.id, card, result);
      if (at !== null) {
        await deferCard(db, batch.id, card.position, new Date(at), result.message);
        continue;
      }
      final = retries.gaveUp(card, result);
    }
    await finish(settings, run, card, cardNumber, final);
  }
}

function startRun(settings: RunnerSettings, batch: BatchRow): BatchRun {
  return {
    batch,
    actor: { userId: batch.userId, roles: batch.roles as Role[], clientAddress: batch.clientAddress },
    credentials: credentialsStateFor(batch, settings.vault),
    tokens: memoryToken(),
    paused: { until: 0 },
  };
}

/** Keeps the runner's claim on the batch alive while it runs; returns the stop. */
function keepLease(settings: RunnerSettings, batchId: string): () => void {
  const { db, now, runnerLeaseMs } = settings;
  const renewal = setInterval(() => {
    renewRunner(db, batchId, new Date(now()), runnerLeaseMs).catch((error: unknown) =>
      logger.warn({ batch: batchId, error: String(error) }, "support batch lease renewal failed"),
    );
  }, runnerLeaseMs / 3);
  renewal.unref?.();
  return () => clearInterval(renewal);
}

/** Waits of running batches that a wake-up cuts short (a cancellation is seen at once). */
function createPauses({ now, runnerLeaseMs }: RunnerSettings) {
  const wakers = new Map<string, () => void>();
  return {
    /** Waits until `at` or a wake-up, whichever comes first (at most a third of the lease, to renew it). */
    until(batchId: string, at: number): Promise<void> {
      return new Promise((resolve) => {
        const timer = setTimeout(done, Math.max(0, Math.min(at - now(), runnerLeaseMs / 3)));
        function done() {
          clearTimeout(timer);
          wakers.delete(batchId);
          resolve();
        }
        wakers.set(batchId, done);
      });
    },
    wake(batchId: string): void {
      wakers.get(batchId)?.();
    },
  };
}

export function createBatchRunner(options: BatchRunnerOptions): BatchRunner {
  const settings = withDefaults(options);
  const { db, now, runnerLeaseMs, cardLeaseMs, concurrency } = settings;
  const retries = createRetryPolicy(settings);
  const pauses = createPauses(settings);
  const runs = new Map<string, Promise<void>>();

  async function runBatch(batch: BatchRow): Promise<void> {
    const run = startRun(settings, batch);
    const stopLease = keepLease(settings, batch.id);
    try {
      for (;;) {
        await Promise.all(Array.from({ length: concurrency }, () => worker(settings, retries, run)));
        if (await completeIfFinished(db, batch.id, new Date(now()))) return;
        const wake = await nextWake(db, batch.id, cardLeaseMs);
        // Nothing left to claim and not finished: cancelled (or ended elsewhere).
        if (wake === null) return;
        // A cancelled batch with deferred cards stops waiting.
        if ((await batchStatus(db, batch.id)) !== "running") return;
        await pauses.until(batch.id, Math.max(wake.getTime(), run.paused.until));
      }
    } finally {
      stopLease();
      await releaseRunner(db, batch.id).catch(() => undefined);
    }
  }

  return {
    async ensureRunning(batchId) {
      if (runs.has(batchId)) return;
      const batch = await claimRunner(db, batchId, new Date(now()), runnerLeaseMs);
      if (!batch || runs.has(batchId)) return;
      const running = runBatch(batch)
        .catch((error: unknown) =>
          logger.error(
            { batch: batchId, error: String(error) },
            "support batch run failed; another look resumes it",
          ),
        )
        .finally(() => runs.delete(batchId));
      runs.set(batchId, running);
    },
    async settled(batchId) {
      await runs.get(batchId);
    },
    wake(batchId) {
      pauses.wake(batchId);
    },
  };
}
