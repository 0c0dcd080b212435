/**
 * The opaque key the browser files a user's state under (history, remembered fields, the support reason): the
 * pages get it from `GET /api/me` and send it back as `X-Console-User` on their API calls, so a page that was
 * loaded for one user notices when the session (or the reverse proxy) now names another.
 * A hash, so the browser's storage names do not spell the user's id or email.
 */
import "server-only";
import { createHash } from "node:crypto";
import type { AuthMode } from "./me";

/** The header a page sends with the key of the user it was loaded for. */
export const USER_KEY_HEADER = "x-console-user";

/** The one local user of `AUTH_MODE=none`: its state keeps the names it had before users were told apart. */
const LOCAL_USER_KEY = "local";

export function userStorageKey(mode: AuthMode, userId: string): string {
  if (mode === "none") return LOCAL_USER_KEY;
  return createHash("sha256")
    .update(`card-services-console:user:${mode}:${userId}`)
    .digest("hex")
    .slice(0, 32);
}
