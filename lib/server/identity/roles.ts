/**
 * Console roles and what they allow (docs/design.md §6): the one table that server routes enforce (through
 * `lib/server/identity/enforce.ts`) and pages read (through `GET /api/me`). Isomorphic on purpose: no secrets, no Node APIs.
 *
 * | role       | may                                                                                          |
 * | ---------- | -------------------------------------------------------------------------------------------- |
 * | `support`  | support desk (Balance Inquiry, lookup by Request Id, single or batch) in every environment;   |
 * |            | card numbers as last 4 only; no raw exchange, copy as code, token details or Gift Balance    |
 * | `engineer` | everything on `embedded` and `sandbox`; in `production` only Balance Inquiry and lookups      |
 * |            | (and seeing those calls' exchanges)                                                          |
 * | `tester`   | everything, including certification runs and Gift Balance Inquiry in `production`            |
 * | `admin`    | everything, and the audit log                                                                |
 *
 * A user with several roles gets the union. Roles come from groups through `ROLE_GROUPS`; an exact, case-sensitive
 * group name match, because a case-folded match could hand a role to a group the administrator did not name.
 */
import { ENVIRONMENTS, type EnvironmentName } from "@/lib/shared/contracts";
import { maskCardNumber } from "@/lib/shared/masking";

export const ROLES = ["support", "engineer", "tester", "admin"] as const;
export type Role = (typeof ROLES)[number];

/**
 * Actions that happen in one environment. How routes map onto them:
 * - `token_request`: `POST /api/token`; `token_details`: token metadata (scopes, claims, fingerprint) in answers;
 * - `gift_balance_inquiry`, `balance_inquiry`: `POST /api/inquiries/*` (these answer with an exchange record,
 *   so those routes also assert `raw_exchange`); `transaction_lookup`: `GET /api/transactions/request-id/{id}`;
 * - `raw_exchange`: an exchange record (request and response as sent) in any answer; `copy_as_code`: the page's
 *   cURL/fetch export; `certification_run`: start, read and download certification runs and their evidence;
 * - `support_lookup`: `POST /api/support/lookups`; `support_batch`: `/api/support/batches*`.
 */
export const ENVIRONMENT_ACTIONS = [
  "token_request",
  "token_details",
  "gift_balance_inquiry",
  "balance_inquiry",
  "transaction_lookup",
  "raw_exchange",
  "copy_as_code",
  "certification_run",
  "support_lookup",
  "support_batch",
] as const;
export type EnvironmentAction = (typeof ENVIRONMENT_ACTIONS)[number];

/**
 * Actions not tied to an environment: the audit log, seeing and ending other people's sessions, and monitors
 * (docs/design.md §13: seeing them, and creating, changing, running or deleting them).
 */
export const GLOBAL_ACTIONS = [
  "audit_read",
  "audit_export",
  "session_admin",
  "monitor_read",
  "monitor_write",
] as const;
export type GlobalAction = (typeof GLOBAL_ACTIONS)[number];

export type Action = EnvironmentAction | GlobalAction;

/** How card numbers are shown after entry: `last4` (`************0001`) or first 6 + last 4. */
export type CardNumberDisplay = "last4" | "first6_last4";

/** Which groups grant which role (the parsed `ROLE_GROUPS`). */
export type RoleGroups = Partial<Record<Role, readonly string[]>>;

const SUPPORT_DESK: readonly EnvironmentAction[] = [
  "balance_inquiry",
  "transaction_lookup",
  "support_lookup",
  "support_batch",
];

/**
 * An engineer in production runs only the read-only operations (no Gift Balance Inquiry: it records a real
 * transaction; no token request or certification run), but still sees the exchanges of the calls they may make.
 */
const ENGINEER_IN_PRODUCTION: readonly EnvironmentAction[] = [
  ...SUPPORT_DESK,
  "raw_exchange",
  "copy_as_code",
  "token_details",
];

type Grants = Record<EnvironmentName, ReadonlySet<EnvironmentAction>>;

const everywhere = (actions: readonly EnvironmentAction[]): Grants => ({
  embedded: new Set(actions),
  sandbox: new Set(actions),
  production: new Set(actions),
});

const ENVIRONMENT_GRANTS: Record<Role, Grants> = {
  support: everywhere(SUPPORT_DESK),
  engineer: {
    embedded: new Set(ENVIRONMENT_ACTIONS),
    sandbox: new Set(ENVIRONMENT_ACTIONS),
    production: new Set(ENGINEER_IN_PRODUCTION),
  },
  tester: everywhere(ENVIRONMENT_ACTIONS),
  admin: everywhere(ENVIRONMENT_ACTIONS),
};

const GLOBAL_GRANTS: Record<Role, ReadonlySet<GlobalAction>> = {
  support: new Set(),
  engineer: new Set(["monitor_read"]),
  tester: new Set(["monitor_read", "monitor_write"]),
  admin: new Set(GLOBAL_ACTIONS),
};

/** The roles a user with these groups holds under `ROLE_GROUPS`. No matching group: no role (not an error). */
export function rolesFromGroups(groups: readonly string[], roleGroups: RoleGroups): Role[] {
  const held = new Set(groups);
  return ROLES.filter((role) => (roleGroups[role] ?? []).some((group) => held.has(group)));
}

export function isEnvironmentAction(action: Action): action is EnvironmentAction {
  return (ENVIRONMENT_ACTIONS as readonly string[]).includes(action);
}

export function can(roles: readonly Role[], action: EnvironmentAction, environment: EnvironmentName): boolean;
export function can(roles: readonly Role[], action: GlobalAction): boolean;
export function can(roles: readonly Role[], action: Action, environment?: EnvironmentName): boolean {
  return rolesAllowing(action, environment).some((role) => roles.includes(role));
}

/** Whether `action` is allowed in at least one environment: for showing or hiding a page, never for enforcing. */
export function canSomewhere(roles: readonly Role[], action: Action): boolean {
  if (!isEnvironmentAction(action)) return can(roles, action);
  return ENVIRONMENTS.some((environment) => can(roles, action, environment));
}

/** Every role that allows `action` (in `environment`, for environment actions), in the table's order. */
export function rolesAllowing(action: Action, environment?: EnvironmentName): Role[] {
  if (isEnvironmentAction(action)) {
    if (environment === undefined) return [];
    return ROLES.filter((role) => ENVIRONMENT_GRANTS[role][environment].has(action));
  }
  return ROLES.filter((role) => GLOBAL_GRANTS[role].has(action));
}

/**
 * Actions that the pages must confirm before running: a Gift Balance Inquiry in production records a real
 * transaction, and so does a certification run that includes one (`allow_production_gift`).
 */
export function needsConfirmation(action: EnvironmentAction, environment: EnvironmentName): boolean {
  return environment === "production" && action === "gift_balance_inquiry";
}

/** Support sees last 4 only; any other role (union: the widest view held) sees first 6 + last 4. */
export function cardNumberDisplay(roles: readonly Role[]): CardNumberDisplay {
  return roles.some((role) => role !== "support") ? "first6_last4" : "last4";
}

/** `6006491000000001` → `************0001` (the support view). Anything not 12–19 digits is masked whole. */
function maskCardNumberLast4(cardNumber: string): string {
  if (!/^\d{12,19}$/.test(cardNumber)) return "*".repeat(Math.min(cardNumber.length, 19));
  return "*".repeat(cardNumber.length - 4) + cardNumber.slice(-4);
}

export function maskCardNumberForRoles(cardNumber: string, roles: readonly Role[]): string {
  return cardNumberDisplay(roles) === "last4" ? maskCardNumberLast4(cardNumber) : maskCardNumber(cardNumber);
}
