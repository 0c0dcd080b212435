/**
 * What the batch routes do: start a batch from a card list (one audit row for the start, one per card as it
 * runs), report its progress, list and export its masked results, cancel it. A batch belongs to the user who
 * started it: anyone else gets 404 (an admin may read and cancel any).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { EnvironmentName } from "@/lib/shared/contracts";
import { PURSES } from "@/lib/shared/purses";
import { lastFourOnly } from "@/lib/shared/masking";
import { cardHmac, type AuditLog } from "@/lib/server/audit";
import type { Database } from "@/lib/server/database";
import { ApiError } from "@/lib/server/util/errors";
import {
  batchCancelledAuditEntry,
  batchStartedAuditEntry,
  writeSupportAudit,
  type AuditActor,
} from "./audit-rows";
import {
  cancelBatch,
  countCards,
  failedSealedCards,
  findBatch,
  listBatchRows,
  type BatchCounts,
  insertBatch,
  type NewBatchCard,
  purgeExpiredBatches,
  resultRows,
  type BatchRow,
  type ResultRow,
} from "./batch-store";
import { storeCredentials, type BatchRunner, type StoredCredentials } from "./batch-runner";
import { normalizeCardNumber, parseCardList, type CardList } from "./card-list";
import type { CardVault } from "./card-vault";
import { csvCell } from "@/lib/server/util/csv";
import type {
  BatchStatus,
  LookupOutcome,
  ResultFilter,
  SupportBatchList,
  SupportBatchRequest,
  SupportBatchProgress,
  SupportBatchResultRow,
  SupportBatchResults,
} from "@/lib/shared/support-contract";

export interface SupportBatchDeps {
  db: Database;
  auditLog: Pick<AuditLog, "append">;
  /** AUDIT_HMAC_KEY: the keyed hash in results and exports (the same as the audit log's). */
  hmacKey: string;
  vault: CardVault;
  runner: BatchRunner;
  /** SUPPORT_BATCH_MAX_CARDS. */
  maxCards: number;
  now?: () => number;
}

export interface BatchOwner {
  userId: string;
  roles: readonly string[];
}

const clock = (deps: SupportBatchDeps) => new Date((deps.now ?? Date.now)());

/** The cards of a JSON list or CSV text, with bad entries reported by their 1-based line (list index + 1). */
function cardListOf(input: SupportBatchRequest): CardList {
  if ("csv" in input) return parseCardList(input.csv);
  const list: CardList = { cards: [], badLines: [], badLineCount: 0, headerLine: null };
  input.cards.forEach((value, index) => {
    const card = normalizeCardNumber(value);
    if (card) list.cards.push({ line: index + 1, cardNumber: card });
    else {
      list.badLineCount += 1;
      if (list.badLines.length < 200) {
        list.badLines.push({
          line: index + 1,
          message: "not a card number: a card number has 12 to 19 digits",
        });
      }
    }
  });
  return list;
}

export interface StartBatchRequest {
  input: SupportBatchRequest;
  actor: AuditActor;
  environment: EnvironmentName;
  credentials: StoredCredentials;
}

export function startBatch(
  deps: SupportBatchDeps,
  request: StartBatchRequest,
): Promise<SupportBatchProgress> {
  return startFromList(deps, request, cardListOf(request.input));
}

/**
 * "Run the failed cards again": a new batch of the cards of `batch` that had no usable answer (timeout, rate
 * limited, upstream error), from the numbers the server kept sealed; the browser never had them.
 */
export async function retryFailedCards(
  deps: SupportBatchDeps,
  batch: BatchRow,
  request: Omit<StartBatchRequest, "input">,
): Promise<SupportBatchProgress> {
  const failed = await failedSealedCards(deps.db, batch.id);
  if (failed.length === 0) {
    throw new ApiError("validation_failed", "This batch has no failed cards to run again.", {
      fields: { batch: ["no failed cards"] },
    });
  }
  const list: CardList = {
    cards: failed.map((card) => ({ line: card.line, cardNumber: deps.vault.open(card.sealed) })),
    badLines: [],
    badLineCount: 0,
    headerLine: null,
  };
  const reason = batch.reason ?? undefined;
  return startFromList(deps, { ...request, input: { cards: [], ...(reason ? { reason } : {}) } }, list);
}

/** A card as stored: last 4, keyed hash, the number sealed, and the line's uploaded columns. */
function storedCard(deps: SupportBatchDeps, card: CardList["cards"][number]): NewBatchCard {
  return {
    line: card.line,
    last4: card.cardNumber.slice(-4),
    cardHmac: cardHmac(deps.hmacKey, card.cardNumber),
    cardSealed: deps.vault.seal(card.cardNumber),
    ...(card.extra ? { extra: card.extra } : {}),
  };
}

async function startFromList(
  deps: SupportBatchDeps,
  request: StartBatchRequest,
  list: CardList,
): Promise<SupportBatchProgress> {
  const { input, actor, environment } = request;
  if (list.cards.length === 0) {
    throw new ApiError("validation_failed", "No card numbers found: one per line, or a card_number column.", {
      fields: { cards: ["no card numbers found"] },
      bad_lines: list.badLines,
      bad_line_count: list.badLineCount,
    });
  }
  if (list.cards.length > deps.maxCards) {
    throw new ApiError(
      "validation_failed",
      `${list.cards.length} cards: a batch holds at most ${deps.maxCards} (SUPPORT_BATCH_MAX_CARDS). Split the list.`,
      {
        fields: { cards: [`at most ${deps.maxCards} cards`] },
        cards: list.cards.length,
        max_cards: deps.maxCards,
      },
    );
  }
  const now = clock(deps);
  await purgeExpiredBatches(deps.db, now);
  const id = randomUUID();
  const reason = input.reason ? input.reason : null;
  await insertBatch(deps.db, {
    id,
    userId: actor.userId,
    roles: [...actor.roles],
    clientAddress: actor.clientAddress,
    environment,
    credentials: storeCredentials(request.credentials, deps.vault),
    reason,
    badLines: { count: list.badLineCount, lines: list.badLines },
    columns: list.columns ?? [],
    cards: list.cards.map((card) => storedCard(deps, card)),
    now,
  });
  await writeSupportAudit(
    deps.auditLog,
    batchStartedAuditEntry({
      actor,
      environment,
      batchId: id,
      reason,
      cards: list.cards.length,
      badLines: list.badLineCount,
    }),
  );
  await deps.runner.ensureRunning(id);
  return progressOf(deps, await ownedBatch(deps, id, { userId: actor.userId, roles: actor.roles }));
}

/** The batch when the caller may see it; 404 otherwise (whether absent, expired or someone else's). */
export async function ownedBatch(deps: SupportBatchDeps, id: string, owner: BatchOwner): Promise<BatchRow> {
  const batch = await findBatch(deps.db, id, clock(deps));
  if (!batch || (batch.userId !== owner.userId && !owner.roles.includes("admin"))) {
    throw new ApiError("not_found", "No such batch: it may have expired (results are kept 24 hours).");
  }
  return batch;
}

/**
 * Cards per second and seconds left. The rate counts finished cards over the batch's own time: from its start to
 * now while cards are in flight (so a stall lowers it), to its last answer once none is (a finished batch's rate
 * does not fall as it ages). Seconds left apply it to the cards in flight; null when that cannot be known:
 * nothing finished yet, or only cards already sent remain.
 */
export function estimate(
  counts: Pick<BatchCounts, "pending" | "running" | "done" | "failed" | "lastFinishedAt">,
  startedAt: Date | null,
  now: Date,
) {
  const finished = counts.done + counts.failed;
  const inFlight = counts.pending + counts.running;
  const end = inFlight === 0 && counts.lastFinishedAt ? counts.lastFinishedAt : now;
  const elapsed = startedAt ? (end.getTime() - startedAt.getTime()) / 1000 : 0;
  const rate = finished > 0 && elapsed > 0 ? Math.round((finished / elapsed) * 10) / 10 : null;
  if (inFlight === 0) return { rate, eta: 0 };
  if (!rate || counts.pending === 0) return { rate, eta: null };
  return { rate, eta: Math.ceil(inFlight / rate) };
}

async function progressOf(deps: SupportBatchDeps, batch: BatchRow): Promise<SupportBatchProgress> {
  const counts = await countCards(deps.db, batch.id);
  // Cancelled cards were never sent: a cancelled batch's pending count is what was still running.
  const { rate, eta } = estimate(counts, batch.startedAt, clock(deps));
  return {
    id: batch.id,
    status: batch.status as BatchStatus,
    environment: batch.environment as EnvironmentName,
    total: batch.total,
    done: counts.done + counts.failed,
    failed: counts.failed,
    cancelled: counts.cancelled,
    found: counts.done,
    not_found: counts.notFound,
    errors: counts.failed - counts.notFound,
    in_flight: counts.pending + counts.running,
    rate,
    eta_seconds: eta,
    reason: batch.reason,
    bad_lines: batch.badLines.lines.map(({ line, message }) => ({ line, message })),
    bad_line_count: batch.badLines.count,
    columns: (batch.columns ?? []).map(lastFourOnly),
    created_at: batch.createdAt.toISOString(),
    started_at: batch.startedAt?.toISOString() ?? null,
    finished_at: batch.finishedAt?.toISOString() ?? null,
    expires_at: batch.expiresAt.toISOString(),
  };
}

/** The caller's batches (everyone's for an admin), newest first, with progress; at most `limit`. */
export async function listBatches(
  deps: SupportBatchDeps,
  owner: BatchOwner,
  limit = 50,
): Promise<SupportBatchList> {
  const everyone = owner.roles.includes("admin");
  const rows = await listBatchRows(deps.db, everyone ? null : owner.userId, clock(deps), limit);
  const batches = await Promise.all(
    rows.map(async (row) => {
      const { bad_lines: _omitted, ...progress } = await progressOf(deps, row);
      return { ...progress, user_id: row.userId };
    }),
  );
  return { batches };
}

/** Progress, and — when nobody is running the batch (its instance died) — this instance takes it over. */
export async function readBatch(
  deps: SupportBatchDeps,
  id: string,
  owner: BatchOwner,
): Promise<SupportBatchProgress> {
  const batch = await ownedBatch(deps, id, owner);
  if (batch.status === "queued" || batch.status === "running") await deps.runner.ensureRunning(id);
  return progressOf(deps, batch);
}

/**
 * Stops every queued or running batch of `userId` (a suspension, or an admin ending all their sessions): cards
 * not yet started are cancelled on every instance (their runners claim none), each batch audited as cancelled by
 * `actor`. Returns how many batches were stopped.
 */
export async function cancelUserBatches(
  deps: SupportBatchDeps,
  userId: string,
  actor: AuditActor,
): Promise<number> {
  const rows = await listBatchRows(deps.db, userId, new Date(clock(deps)), 1000);
  let stopped = 0;
  for (const batch of rows.filter((row) => row.status === "queued" || row.status === "running")) {
    const notRun = await cancelBatch(deps.db, batch.id, clock(deps));
    if (notRun === null) continue;
    stopped += 1;
    deps.runner.wake(batch.id);
    await writeSupportAudit(
      deps.auditLog,
      batchCancelledAuditEntry({
        actor,
        environment: batch.environment as EnvironmentName,
        batchId: batch.id,
        reason: batch.reason,
        cards: notRun,
      }),
    );
  }
  return stopped;
}

export async function cancelOwnedBatch(
  deps: SupportBatchDeps,
  id: string,
  owner: BatchOwner,
  actor: AuditActor,
): Promise<SupportBatchProgress> {
  const batch = await ownedBatch(deps, id, owner);
  const notRun = await cancelBatch(deps.db, id, clock(deps));
  if (notRun !== null) {
    deps.runner.wake(id);
    await writeSupportAudit(
      deps.auditLog,
      batchCancelledAuditEntry({
        actor,
        environment: batch.environment as EnvironmentName,
        batchId: id,
        reason: batch.reason,
        cards: notRun,
      }),
    );
  }
  return progressOf(deps, await ownedBatch(deps, id, owner));
}

function resultStatus(row: ResultRow): LookupOutcome | "pending" | "cancelled" {
  if (row.state === "cancelled") return "cancelled";
  if (row.state === "pending" || row.state === "running") return "pending";
  return (row.outcome as LookupOutcome | null) ?? "upstream_error";
}

function resultRow(row: ResultRow): SupportBatchResultRow {
  const state: SupportBatchResultRow["state"] =
    row.state === "running" ? "pending" : (row.state as SupportBatchResultRow["state"]);
  return {
    position: row.position,
    line: row.line,
    last4: row.last4,
    card_hash: row.cardHmac,
    state,
    outcome: (row.outcome as LookupOutcome | null) ?? null,
    balances: (row.balances as SupportBatchResultRow["balances"]) ?? null,
    error: row.error,
    extra: (row.extra ?? []).map(lastFourOnly),
  };
}

export const MAX_RESULTS_PAGE = 1000;

export async function resultsPage(
  deps: SupportBatchDeps,
  batch: BatchRow,
  fromPosition: number,
  limit: number,
  show?: ResultFilter,
): Promise<SupportBatchResults> {
  const rows = await resultRows(deps.db, batch.id, fromPosition, limit + 1, show);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  return {
    rows: page.map(resultRow),
    next_position: more ? page[page.length - 1]!.position + 1 : null,
  };
}

const RESULTS_CSV_COLUMNS = ["line", "last4", "card_hash", ...PURSES, "status", "error"] as const;

/**
 * The header: ours, then the uploaded columns as named (one that repeats a name of ours gets `uploaded_`, so no
 * column name is ambiguous).
 */
function csvHeader(columns: readonly string[]): string {
  const ours = new Set<string>(RESULTS_CSV_COLUMNS);
  const uploaded = columns.map((name) => (ours.has(name) ? `uploaded_${name}` : name));
  return [...RESULTS_CSV_COLUMNS, ...uploaded].map(csvCell).join(",");
}

/** The uploaded cells of a line, one per uploaded column (empty when the line had none). */
function extraCells(extra: readonly string[] | null | undefined, width: number): string[] {
  return Array.from({ length: width }, (_, index) => extra?.[index] ?? "");
}

function cardCsvLine(row: ResultRow, width: number): string {
  const balances = (row.balances ?? {}) as Record<string, string>;
  return [
    String(row.line),
    row.last4,
    row.cardHmac,
    ...PURSES.map((purse) => balances[purse] ?? ""),
    resultStatus(row),
    row.error ?? "",
    ...extraCells(row.extra, width),
  ]
    .map(csvCell)
    .join(",");
}

/** An input line that was not a card number: in the CSV as `skipped`, with why, so every line is accounted for. */
function skippedCsvLine(bad: { line: number; message: string; extra?: string[] }, width: number): string {
  return [
    String(bad.line),
    "",
    "",
    ...PURSES.map(() => ""),
    "skipped",
    bad.message,
    ...extraCells(bad.extra, width),
  ]
    .map(csvCell)
    .join(",");
}

/**
 * The masked results CSV, one row per input line in input order (skipped lines included, as far as the batch
 * kept them: the first 200), streamed page by page; an uploaded CSV's other columns follow ours on each line.
 */
export function resultsCsv(deps: SupportBatchDeps, batch: BatchRow): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const skipped = [...batch.badLines.lines].sort((a, b) => a.line - b.line);
  const columns = batch.columns ?? [];
  let position = 0;
  let headerSent = false;
  // Skipped lines before `line`, taken off the list as they are written.
  const skippedBefore = (line: number) => {
    const taken: string[] = [];
    while (skipped.length > 0 && skipped[0]!.line < line) {
      taken.push(skippedCsvLine(skipped.shift()!, columns.length));
    }
    return taken;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`${csvHeader(columns)}\r\n`));
        return;
      }
      const rows = await resultRows(deps.db, batch.id, position, MAX_RESULTS_PAGE);
      if (rows.length === 0) {
        const rest = skippedBefore(Number.POSITIVE_INFINITY);
        if (rest.length > 0) controller.enqueue(encoder.encode(`${rest.join("\r\n")}\r\n`));
        controller.close();
        return;
      }
      position = rows[rows.length - 1]!.position + 1;
      const lines = rows.flatMap((row) => [...skippedBefore(row.line), cardCsvLine(row, columns.length)]);
      controller.enqueue(encoder.encode(`${lines.join("\r\n")}\r\n`));
    },
  });
}
