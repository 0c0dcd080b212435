/**
 * What the console keeps in localStorage: the theme and the last location_id. Nothing else, and never
 * anything secret (credentials and tokens live only in the server's encrypted session cookie).
 */

export const THEME_STORAGE_KEY = "console.theme";
export const LOCATION_STORAGE_KEY = "console.location_id";

export type ThemeChoice = "light" | "dark";

function readItem(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled (private mode, policy)
  }
}

function writeItem(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
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

export function storedLocationId(): string | null {
  return readItem(LOCATION_STORAGE_KEY);
}

export function storeLocationId(locationId: string): void {
  writeItem(LOCATION_STORAGE_KEY, locationId.trim() === "" ? null : locationId.trim());
}

/**
 * Runs in <head> before the first paint (inline script), so that a dark-mode user never sees a light
 * flash. Kept tiny and self-contained: it cannot import anything.
 */
export const THEME_BOOT_SCRIPT = `(function(){try{var t=localStorage.getItem(${JSON.stringify(
  THEME_STORAGE_KEY,
)});var d=t==="dark"||(t!=="light"&&window.matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.classList.toggle("dark",d)}catch(e){}})();`;
