/**
 * The browser's history of runs (token requests and inquiries), kept in IndexedDB so that it survives
 * reloads and never leaves the machine. A run holds the exchange record as the server returned it
 * (card numbers masked, secrets redacted) plus what the UI needs. It never holds a full card number or
 * an access token: `addRun` and `importRuns` clean every record again before writing it.
 */
import type { ExchangeRecord, TokenMetadata } from "@/lib/shared/contracts";
import { cardLast4, maskCardNumbersInText } from "./card-mask";
import { sanitizeExchange } from "./sanitize-exchange";
import { HISTORY_EXPORT_FORMAT, HISTORY_EXPORT_VERSION } from "./history-format";
import { HISTORY_DATABASE, scopedName } from "./user-scope";

export interface HistoryRun {
  /** The exchange record's id. */
  id: string;
  /** Copy of `exchange.started_at`: the sort key. */
  started_at: string;
  saved_at: string;
  exchange: ExchangeRecord;
  /** Masked card number and its last 4 digits, for inquiries. */
  card: { masked: string; last4: string } | null;
  location_id: string | null;
  /** For token requests: the token's metadata (scopes, expiry, claims, fingerprint), never the token. */
  token: TokenMetadata | null;
}

export interface NewRun {
  exchange: ExchangeRecord;
  /** The card number as typed (full) or as recorded (masked); only its masked form is kept. */
  cardNumber?: string | null;
  locationId?: string | null;
  token?: TokenMetadata | null;
}

export { HISTORY_EXPORT_FORMAT, HISTORY_EXPORT_VERSION };

export interface HistoryExport {
  format: typeof HISTORY_EXPORT_FORMAT;
  version: typeof HISTORY_EXPORT_VERSION;
  exported_at: string;
  runs: HistoryRun[];
}

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

const STORE = "runs";
const BY_STARTED_AT = "by_started_at";

function promisify<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB request failed"));
  });
}

function transactionDone(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error("IndexedDB transaction failed"));
    transaction.onabort = () => reject(transaction.error ?? new Error("IndexedDB transaction aborted"));
  });
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
 * The (masked) card number and location of a run, as its request body recorded them (spec §2.3); a lookup by
 * Request Id sends no body, so its card is the one of the transaction it found.
 */
export function recordedCardFields(exchange: ExchangeRecord): {
  cardNumber: string | null;
  locationId: string | null;
} {
  return {
    cardNumber:
      stringAt(exchange.request.body, ["data", "card_number"]) ??
      stringAt(exchange.response.body, ["data", "card_number"]),
    locationId: stringAt(exchange.request.body, ["data", "originator", "location_id"]),
  };
}

/** Cleans a run before it is written: masks and redacts again, recomputes the card fields. */
export function cleanRun(run: HistoryRun): HistoryRun {
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
  let database: Promise<IDBDatabase> | null = null;
  const listeners = new Set<() => void>();

  function open(): Promise<IDBDatabase> {
    if (!factory) return Promise.reject(new Error("IndexedDB is not available in this browser."));
    database ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(databaseName, 1);
      request.onupgradeneeded = () => {
        const store = request.result.createObjectStore(STORE, { keyPath: "id" });
        store.createIndex(BY_STARTED_AT, "started_at");
      };
      request.onsuccess = () => {
        const opened = request.result;
        // Another tab signing this user out deletes the database: let it, and reopen on the next use.
        opened.onversionchange = () => {
          opened.close();
          database = null;
        };
        resolve(opened);
      };
      request.onerror = () => reject(request.error ?? new Error("IndexedDB could not be opened"));
    }).catch((error: unknown) => {
      database = null;
      throw error;
    });
    return database;
  }

  async function write(runs: HistoryRun[]): Promise<void> {
    const transaction = (await open()).transaction(STORE, "readwrite");
    const store = transaction.objectStore(STORE);
    for (const run of runs) store.put(run);
    await transactionDone(transaction);
  }

  function notify() {
    for (const listener of listeners) listener();
  }

  async function listRuns(options: { limit?: number } = {}): Promise<HistoryRun[]> {
    const transaction = (await open()).transaction(STORE, "readonly");
    const index = transaction.objectStore(STORE).index(BY_STARTED_AT);
    const runs: HistoryRun[] = [];
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    await new Promise<void>((resolve, reject) => {
      const request = index.openCursor(null, "prev");
      request.onerror = () => reject(request.error ?? new Error("IndexedDB cursor failed"));
      request.onsuccess = () => {
        const cursor = request.result;
        if (!cursor || runs.length >= limit) return resolve();
        runs.push(cursor.value as HistoryRun);
        cursor.continue();
      };
    });
    return runs;
  }

  return {
    async addRun({ exchange, cardNumber, locationId, token }) {
      const recorded = recordedCardFields(exchange);
      cardNumber ??= recorded.cardNumber;
      locationId ??= recorded.locationId;
      const run = cleanRun({
        id: exchange.id,
        started_at: exchange.started_at,
        saved_at: new Date().toISOString(),
        exchange,
        card: cardNumber ? { masked: cardNumber, last4: "" } : null,
        location_id: locationId ?? null,
        token: token ?? null,
      });
      await write([run]);
      notify();
      return run;
    },

    listRuns,

    async getRun(id) {
      const transaction = (await open()).transaction(STORE, "readonly");
      return (await promisify(transaction.objectStore(STORE).get(id))) as HistoryRun | undefined;
    },

    async deleteRun(id) {
      const transaction = (await open()).transaction(STORE, "readwrite");
      transaction.objectStore(STORE).delete(id);
      await transactionDone(transaction);
      notify();
    },

    async clearRuns() {
      const transaction = (await open()).transaction(STORE, "readwrite");
      transaction.objectStore(STORE).clear();
      await transactionDone(transaction);
      notify();
    },

    async exportRuns(runs) {
      const document: HistoryExport = {
        format: HISTORY_EXPORT_FORMAT,
        version: HISTORY_EXPORT_VERSION,
        exported_at: new Date().toISOString(),
        runs: (runs ?? (await listRuns())).map(cleanRun),
      };
      return JSON.stringify(document, null, 2);
    },

    async importRuns(json) {
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
      const runs = result.runs.map(cleanRun);
      await write(runs);
      notify();
      return { imported: runs.length };
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    close() {
      const opened = database;
      database = null;
      void opened?.then((connection) => connection.close()).catch(() => undefined);
    },
  };
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
