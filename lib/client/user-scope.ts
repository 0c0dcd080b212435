/**
 * Whose browser-side state this page reads and writes. Everything the console keeps in this browser for a person
 * (run history in IndexedDB, the remembered location and operation, the support reason and recent lookups) is
 * filed under the key GET /api/me gives for the signed-in user, so that one browser shared by several people (a
 * support desk PC) never shows one person's state to the next. The one local user of AUTH_MODE=none keeps the
 * names used before users were told apart, so an existing history stays.
 *
 * The page sends the key with every API call (`X-Console-User`): when the console answers 409
 * `identity_changed` (another sign-in in this browser, a reverse proxy that switched users) the page reloads,
 * and comes back as the new user with that user's state.
 */

const USER_KEY_HEADER = "X-Console-User";
/** The key of AUTH_MODE=none's one local user (lib/server/identity/user-key). */
const LOCAL_USER_KEY = "local";
/** The IndexedDB database of the run history (lib/client/history-store), before the user's key is added. */
export const HISTORY_DATABASE = "card-services-console";
/** localStorage names of per-user preferences (lib/client/preferences), before the user's key is added. */
const USER_LOCAL_KEYS = ["console.location_id", "console.inquiry_operation"] as const;

let current: string | null = null;
let reloading = false;

/** Called with the page's /api/me key as the console shell renders (in the browser only). */
export function setUserScope(key: string | null): void {
  if (typeof window === "undefined" || key === current) return;
  current = key;
  if (key !== null && key !== LOCAL_USER_KEY) forgetUnattributedState();
}

/** The storage name of `base` for this page's user; null while no user is known (nothing is read or kept). */
export function scopedName(base: string): string | null {
  if (current === null) return null;
  return current === LOCAL_USER_KEY ? base : `${base}@${current}`;
}

/** Headers that tell the console which user this page was loaded for. */
export function userHeaders(): Record<string, string> {
  return current === null ? {} : { [USER_KEY_HEADER]: current };
}

/** The signed-in identity is no longer the page's: load the page again, as whoever it is now. */
export function identityChanged(): void {
  if (typeof window === "undefined" || reloading) return;
  reloading = true;
  window.location.reload();
}

function removeLocal(name: string): void {
  try {
    window.localStorage.removeItem(name);
  } catch {
    // storage disabled: nothing was kept
  }
}

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    try {
      const request = window.indexedDB.deleteDatabase(name);
      request.onsuccess = request.onerror = request.onblocked = () => resolve();
    } catch {
      resolve();
    }
  });
}

/**
 * On a team console, state under the unkeyed names was written before users were told apart: nobody can say
 * whose it is, so it is removed rather than shown to whoever signs in.
 */
function forgetUnattributedState(): void {
  for (const name of USER_LOCAL_KEYS) removeLocal(name);
  void deleteDatabase(HISTORY_DATABASE);
}

/**
 * Sign-out: this user's history, remembered fields and the tab's support state are removed from the browser.
 * `closeHistory` closes the page's open history database first, so that its deletion is not blocked.
 */
export async function clearUserState(closeHistory?: () => void): Promise<void> {
  if (typeof window === "undefined") return;
  for (const base of USER_LOCAL_KEYS) {
    const name = scopedName(base);
    if (name !== null) removeLocal(name);
  }
  try {
    window.sessionStorage.clear();
  } catch {
    // storage disabled: nothing was kept
  }
  closeHistory?.();
  const database = scopedName(HISTORY_DATABASE);
  if (database !== null) await deleteDatabase(database);
}
