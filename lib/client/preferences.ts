/**
 * What the console keeps in localStorage: the theme (the browser's), and the user's last location_id and the
 * operation they chose on /inquiry and the language of the Code panel (filed under the signed-in user's key,
 * lib/client/user-scope). Nothing else,
 * and never anything secret (credentials and tokens live only in the server's encrypted session cookie).
 */
import { scopedName } from "./user-scope";

const THEME_STORAGE_KEY = "console.theme";
const LOCATION_STORAGE_KEY = "console.location_id";
const OPERATION_STORAGE_KEY = "console.inquiry_operation";
const CODE_LANGUAGE_STORAGE_KEY = "console.code_language";

export type ThemeChoice = "light" | "dark";

/** The user's own name for a per-user preference; null while no user is known. */
function userItem(key: string): string | null {
  return key === THEME_STORAGE_KEY ? key : scopedName(key);
}

function readItem(key: string): string | null {
  const name = userItem(key);
  if (name === null) return null;
  try {
    return window.localStorage.getItem(name);
  } catch {
    return null; // storage disabled (private mode, policy)
  }
}

function writeItem(key: string, value: string | null): void {
  const name = userItem(key);
  if (name === null) return;
  try {
    if (value === null) window.localStorage.removeItem(name);
    else window.localStorage.setItem(name, value);
  } catch {
    // storage disabled: the preference lasts for this page only
  }
}

export function storedTheme(): ThemeChoice | null {
  const value = readItem(THEME_STORAGE_KEY);
  return value === "light" || value === "dark" ? value : null;
}

/** null: follow the system again. */
export function storeTheme(theme: ThemeChoice | null): void {
  writeItem(THEME_STORAGE_KEY, theme);
}

/** The Code panel's language, when it is one of `offered`. */
export function storedCodeLanguage<Language extends string>(offered: readonly Language[]): Language | null {
  const value = readItem(CODE_LANGUAGE_STORAGE_KEY);
  return offered.includes(value as Language) ? (value as Language) : null;
}

export function storeCodeLanguage(language: string): void {
  writeItem(CODE_LANGUAGE_STORAGE_KEY, language);
}

export function storedLocationId(): string | null {
  return readItem(LOCATION_STORAGE_KEY);
}

export function storeLocationId(locationId: string): void {
  writeItem(LOCATION_STORAGE_KEY, locationId.trim() === "" ? null : locationId.trim());
}

/**
 * The operation last chosen on /inquiry in this browser, when it is one of `offered` (the registry's inquiry
 * operations, passed in so that the theme code every page loads does not carry the registry): a support
 * agent's Balance Inquiry stays chosen.
 */
export function storedOperation<Operation extends string>(offered: readonly Operation[]): Operation | null {
  for (const value of [readItem(OPERATION_STORAGE_KEY), chosenInMemory]) {
    if (offered.includes(value as Operation)) return value as Operation;
  }
  return null;
}

/** The choice when storage is disabled: it then lasts for this page only. */
let chosenInMemory: string | null = null;

function storeOperation(operation: string): void {
  writeItem(OPERATION_STORAGE_KEY, operation);
}

/** Same-tab listeners of the operation preference (the storage event fires in other tabs only). */
const operationListeners = new Set<() => void>();

export function subscribeOperation(listener: () => void): () => void {
  operationListeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === userItem(OPERATION_STORAGE_KEY)) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    operationListeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export function chooseOperation(operation: string): void {
  chosenInMemory = operation;
  storeOperation(operation);
  for (const listener of operationListeners) listener();
}

/**
 * Runs in <head> before the first paint (inline script), so that a dark-mode user never sees a light
 * flash. Kept tiny and self-contained: it cannot import anything.
 */
export const THEME_BOOT_SCRIPT = `(function(){try{var t=localStorage.getItem(${JSON.stringify(
  THEME_STORAGE_KEY,
)});var d=t==="dark"||(t!=="light"&&window.matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.classList.toggle("dark",d)}catch(e){}})();`;
