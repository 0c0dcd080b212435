/**
 * Server-side enforcement of the role table in `./roles` (a hidden page is not a permission): route handlers call
 * `requireUser` and `assertAllowed` before doing anything for the user.
 */
import "server-only";
import type { EnvironmentName } from "@/lib/shared/contracts";
import { ApiError } from "@/lib/server/util/errors";
import type { EndReason } from "@/lib/server/session/store";
import type { SignedInUser } from "./me";
import {
  ROLES,
  can,
  isEnvironmentAction,
  rolesAllowing,
  type Action,
  type EnvironmentAction,
  type GlobalAction,
  type Role,
} from "./roles";

const ACTION_LABELS: Record<Action, string> = {
  token_request: "requesting a token",
  token_details: "seeing token details",
  gift_balance_inquiry: "a Gift Balance Inquiry",
  balance_inquiry: "a Balance Inquiry",
  transaction_lookup: "a lookup by Request Id",
  raw_exchange: "seeing the raw request and response",
  copy_as_code: "copying a call as code",
  certification_run: "certification runs",
  support_lookup: "a support desk lookup",
  support_batch: "support desk batches",
  audit_read: "reading the audit log",
  audit_export: "exporting the audit log",
  session_admin: "seeing and ending people's sessions",
  monitor_read: "seeing monitors",
  monitor_write: "creating, changing, running or deleting monitors",
};

/** `a`, `a or b`, `a, b or c`. */
function spokenList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** What a page tells someone whose session is over, by why it ended. */
const SESSION_END_MESSAGES: Record<EndReason, string> = {
  idle: "Your session ended after a period without activity (idle timeout). Sign in again to go on.",
  expired: "Your session reached its maximum length and ended. Sign in again to go on.",
  signed_out: "This session was signed out (perhaps in another tab). Sign in again to go on.",
  revoked: "An administrator ended this session. Sign in again to go on.",
};

/**
 * 401 `not_signed_in` when there is no signed-in user; when the request's cookie named a session that is over,
 * the message and `details.session_end` say why (so the page can say "idle timeout" rather than just "signed out").
 */
export function requireUser(user: SignedInUser | null, ended?: EndReason): SignedInUser {
  if (user) return user;
  if (ended) throw sessionEndedError(ended);
  throw new ApiError("not_signed_in", "Sign in to use the console.");
}

/** 401 `not_signed_in` for a session that is over, saying why. */
export function sessionEndedError(ended: EndReason): ApiError {
  return new ApiError("not_signed_in", SESSION_END_MESSAGES[ended], { session_end: ended });
}

/**
 * 403 `forbidden_by_role` for a signed-in user without any console role: they get the no-role page and nothing
 * else, not even the session's description (upstream addresses, the server-held client_id).
 */
export function requireSomeRole(user: SignedInUser): void {
  if (user.roles.length > 0) return;
  throw new ApiError(
    "forbidden_by_role",
    "You have no console role; ask the console's administrator for one.",
    { action: "console", roles: [], allowed_roles: [...ROLES] },
  );
}

/** Throws 403 `forbidden_by_role`, naming the role(s) that would allow it, unless `roles` allow `action`. */
export function assertAllowed(
  roles: readonly Role[],
  action: EnvironmentAction,
  environment: EnvironmentName,
): void;
export function assertAllowed(roles: readonly Role[], action: GlobalAction): void;
export function assertAllowed(roles: readonly Role[], action: Action, environment?: EnvironmentName): void {
  const allowed = isEnvironmentAction(action)
    ? environment !== undefined && can(roles, action, environment)
    : can(roles, action);
  if (allowed) return;
  const allowing = rolesAllowing(action, environment);
  const where = isEnvironmentAction(action) && environment ? ` in ${environment}` : "";
  const needed = `the role ${spokenList(allowing)}`;
  // Labels are noun phrases ("certification runs", "a Gift Balance Inquiry"): each sentence reads as English.
  const message =
    roles.length === 0
      ? `You have no console role; ${ACTION_LABELS[action]}${where} needs ${needed}.`
      : `Your role${roles.length > 1 ? "s" : ""} (${spokenList(roles)}) ${roles.length > 1 ? "do" : "does"} ` +
        `not allow ${ACTION_LABELS[action]}${where}; that needs ${needed}.`;
  throw new ApiError("forbidden_by_role", message, {
    action,
    ...(where ? { environment } : {}),
    roles: [...roles],
    allowed_roles: allowing,
  });
}
