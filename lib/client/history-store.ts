/**
 * The browser's history of runs (token requests and inquiries), kept in IndexedDB so that it survives
 * reloads and never leaves the machine. A run holds the exchange record as the server returned it
 * (card numbers masked, secrets redacted) plus what the UI needs. It never holds a full card number or
 * an access token: `addRun` and `importRuns` clean every record again before writing it.
 */
import { readableRequestBody } from "@/lib/shared/free-form";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { cardLast4, maskCardNumbersInText } from "./card-mask";
import { sanitizeExchange } from "./sanitize-exchange";
import { HISTORY_EXPORT_FORMAT, HISTORY_EXPORT_VERSION } from "./history-format";
import { historyDatabase } from "./history-database";
import type { HistoryExport, HistoryRun, NewRun } from "./history-run";
import { HISTORY_DATABASE, scopedName } from "./user-scope";

export type { HistoryRun } from "./history-run";
export class HistoryImportError extends Error {
  override readonly name = "HistoryImportError";
}

export interface HistoryStore {
  addRun(run: NewRun): Promise<HistoryRun>;
  /** Newest first. */
  listRuns(options?: { limit?: number }): Promise<HistoryRun[]>;
  getRun(id: string): Promise<HistoryRun | undefined>;
  deleteRun(id: string): Promise<void>;
  clearRuns(): Promise<void>;
  /** The given runs (by default every run) as a JSON document (HistoryExport). */
  exportRuns(runs?: readonly HistoryRun[]): Promise<string>;
  /** Validates, cleans and adds (or replaces, by id) the runs of an exported document. */
  importRuns(json: string): Promise<{ imported: number }>;
  /** Called after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Closes the database connection (it reopens on the next use): lets a sign-out delete the database. */
  close(): void;
}

/** A card number as typed or as recorded, masked; an already masked one is kept as it is. */
function maskedCard(cardNumber: string): string {
  if (/^\d{6}\*+\d{4}$/.test(cardNumber)) return cardNumber;
  return maskCardNumbersInText(cardNumber.replace(/[\s-]/g, ""));
}

function stringAt(value: unknown, path: string[]): string | null {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return null;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === "string" ? current : null;
}

/**
 * The (masked) card number and location of a run, as its request body recorded them (API specification §2.3); a lookup by
 * Request Id sends no body, so its card is the one of the transaction it found.
 */
export function recordedCardFields(exchange: ExchangeRecord): {
  cardNumber: string | null;
  locationId: string | null;
} {
  const requestBody = readableRequestBody(exchange.request.body);
  return {
    cardNumber:
      stringAt(requestBody, ["data", "card_number"]) ??
      stringAt(exchange.response.body, ["data", "card_number"]),
    locationId: stringAt(requestBody, ["data", "originator", "location_id"]),
  };
}

/** Cleans a run before it is written: masks and redacts again, recomputes the card fields. */
function cleanRun(run: HistoryRun): HistoryRun {
  const exchange = sanitizeExchange(run.exchange);
  const masked = run.card ? maskedCard(run.card.masked) : null;
  return {
    id: exchange.id,
    started_at: exchange.started_at,
    saved_at: run.saved_at,
    exchange,
    card: masked ? { masked, last4: cardLast4(masked) } : null,
    location_id: run.location_id,
    token: run.token ? { ...run.token } : null,
  };
}

export function createHistoryStore(
  factory: IDBFactory = globalThis.indexedDB,
  databaseName = HISTORY_DATABASE,
): HistoryStore {
  const database = historyDatabase(factory, databaseName);
  const listeners = new Set<() => void>();
  /** Runs a change, then tells every subscriber. */
  const changing =
    <A extends unknown[], R>(change: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const result = await change(...args);
      for (const listener of listeners) listener();
      return result;
    };

  return {
    addRun: changing(async (run: NewRun) => {
      const cleaned = newRun(run);
      await database.write([cleaned]);
      return cleaned;
    }),
    listRuns: database.listRuns,
    getRun: database.getRun,
    deleteRun: changing(database.deleteRun),
    clearRuns: changing(database.clearRuns),
    async exportRuns(runs) {
      const document: HistoryExport = {
        format: HISTORY_EXPORT_FORMAT,
        version: HISTORY_EXPORT_VERSION,
        exported_at: new Date().toISOString(),
        runs: (runs ?? (await database.listRuns())).map(cleanRun),
      };
      return JSON.stringify(document, null, 2);
    },
    importRuns: changing(async (json: string) => {
      const runs = (await parseExport(json)).map(cleanRun);
      await database.write(runs);
      return { imported: runs.length };
    }),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: database.close,
  };
}

/** A new run, its card fields taken from the recorded exchange when not given, cleaned. */
function newRun({ exchange, cardNumber, locationId, token }: NewRun): HistoryRun {
  const recorded = recordedCardFields(exchange);
  cardNumber ??= recorded.cardNumber;
  locationId ??= recorded.locationId;
  return cleanRun({
    id: exchange.id,
    started_at: exchange.started_at,
    saved_at: new Date().toISOString(),
    exchange,
    card: cardNumber ? { masked: cardNumber, last4: "" } : null,
    location_id: locationId ?? null,
    token: token ?? null,
  });
}

async function parseExport(json: string): Promise<HistoryRun[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new HistoryImportError("The file is not JSON.");
  }
  // zod is loaded only when someone imports a file: it stays out of every page's first load.
  const { parseHistoryExport } = await import("./history-schema");
  const result = parseHistoryExport(parsed);
  if (!result.ok) throw new HistoryImportError(result.message);
  return result.runs;
}

const stores = new Map<string, HistoryStore>();

/** A store whose every call fails: no user is known yet, so nobody's history may be read or written. */
function noUserStore(): HistoryStore {
  // null, not undefined: undefined would take the default factory and open the unkeyed database.
  const noFactory = null as unknown as IDBFactory;
  return createHistoryStore(noFactory, "");
}

/**
 * The signed-in user's history store (one per page and user): each user has their own IndexedDB database
 * (lib/client/user-scope), so a shared browser never shows one person's runs to another.
 */
export function historyStore(): HistoryStore {
  const name = scopedName(HISTORY_DATABASE);
  if (name === null) return noUserStore();
  let store = stores.get(name);
  if (!store) {
    store = createHistoryStore(globalThis.indexedDB, name);
    stores.set(name, store);
  }
  return store;
}

/** Closes every history database this page opened (before a sign-out deletes the user's). */
export function closeHistoryStores(): void {
  for (const store of stores.values()) store.close();
}
