/** The IndexedDB database behind the browser's history: one object store of runs, indexed by start time. */
import type { HistoryRun } from "./history-run";

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

/** The runs of one database, opened on first use and reopened after another tab closed it. */
export function historyDatabase(factory: IDBFactory, databaseName: string) {
  let database: Promise<IDBDatabase> | null = null;

  function open(): Promise<IDBDatabase> {
    if (!factory) return Promise.reject(new Error("IndexedDB is not available in this browser."));
    database ??= openDatabase(factory, databaseName, () => {
      database = null;
    }).catch((error: unknown) => {
      database = null;
      throw error;
    });
    return database;
  }

  /** One transaction over the runs, settled when it completes. */
  async function change(edit: (store: IDBObjectStore) => void): Promise<void> {
    const transaction = (await open()).transaction(STORE, "readwrite");
    edit(transaction.objectStore(STORE));
    await transactionDone(transaction);
  }

  return {
    write: (runs: HistoryRun[]) => change((store) => runs.forEach((run) => store.put(run))),
    listRuns: async (options: { limit?: number } = {}) => newestRuns(await open(), options.limit),
    async getRun(id: string): Promise<HistoryRun | undefined> {
      const transaction = (await open()).transaction(STORE, "readonly");
      return (await promisify(transaction.objectStore(STORE).get(id))) as HistoryRun | undefined;
    },
    deleteRun: (id: string) => change((store) => store.delete(id)),
    clearRuns: () => change((store) => store.clear()),
    close(): void {
      const opened = database;
      database = null;
      void opened?.then((connection) => connection.close()).catch(() => undefined);
    },
  };
}

function openDatabase(factory: IDBFactory, databaseName: string, onClosed: () => void): Promise<IDBDatabase> {
  return new Promise<IDBDatabase>((resolve, reject) => {
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
        onClosed();
      };
      resolve(opened);
    };
    request.onerror = () => reject(request.error ?? new Error("IndexedDB could not be opened"));
  });
}

/** Newest first, at most `limit`. */
async function newestRuns(database: IDBDatabase, limit = Number.POSITIVE_INFINITY): Promise<HistoryRun[]> {
  const index = database.transaction(STORE, "readonly").objectStore(STORE).index(BY_STARTED_AT);
  const runs: HistoryRun[] = [];
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
