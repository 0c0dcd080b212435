/**
 * The fault families of fault certification (docs/design.md §14), described once: the sandbox applies them, the
 * server arms and judges plans of them, the page and `npm run certify-client` name them. A plan's code is its
 * faults joined by `,`, each `<kind>#<ordinal>:<family>` (`gift#1:reset_after_commit`): the family applies to
 * the ordinal-th call of that kind counted from the moment the plan is armed. Isomorphic and zod-free.
 */

export const CALL_KINDS = ["token", "gift", "balance", "lookup"] as const;
export type CallKind = (typeof CALL_KINDS)[number];

/** The API operation each kind counts (lib/shared/operations.ts). */
const KIND_OPERATIONS = {
  token: "token",
  gift: "gift_balance_inquiry",
  balance: "balance_inquiry",
  lookup: "transaction_lookup",
} as const satisfies Record<CallKind, string>;

export function kindOfOperation(operation: string | null): CallKind | null {
  for (const kind of CALL_KINDS) if (KIND_OPERATIONS[kind] === operation) return kind;
  return null;
}

export const FAULT_CHECK_IDS = [
  "CLI-NO-DUPLICATE-WRITE",
  "CLI-TIMEOUT-BOUND",
  "CLI-TOKEN-BACKOFF",
  "CLI-TOLERANT-READER",
  "CLI-NO-RETRY-403",
] as const;

/** How a family's answer reaches the client: what the sandbox does in its own HTTP handling. */
export type FaultEffect =
  | { type: "status"; status: number; code: string; afterCommit: boolean }
  | { type: "reset"; afterCommit: boolean }
  | { type: "cut_body"; close: boolean }
  | { type: "html_body" }
  | { type: "late_headers"; beyondTimeout: boolean }
  | { type: "drip_body" }
  | { type: "revoke" }
  | { type: "insufficient_scope" }
  | { type: "retry_after"; form: "seconds" | "date" | "long" | "absent" }
  | { type: "short_token" }
  | { type: "unknown_fields" }
  | { type: "unknown_enum"; field: "response_status" | "response_code" }
  | { type: "extra_purse" }
  | { type: "not_found" }
  | { type: "duplicate" };

export interface FaultFamily {
  id: string;
  applies_to: readonly CallKind[];
  /** True when, on a Gift Balance Inquiry, the transaction is recorded before the fault hits the answer. */
  recorded: boolean;
  description: string;
  /** The checks this family exercises. */
  duties: readonly string[];
  effect: FaultEffect;
}

const INQUIRIES = ["gift", "balance"] as const;
const AUTHENTICATED = ["gift", "balance", "lookup"] as const;
const UNKNOWN_OUTCOME = ["CLI-NO-DUPLICATE-WRITE", "CLI-REQUEST-ID-UNIQUE"];
const SLOW = ["CLI-TIMEOUT-BOUND", "CLI-NO-DUPLICATE-WRITE"];
const TOLERANT = ["CLI-TOLERANT-READER"];
const TOKEN_DOWN = ["CLI-TOKEN-BACKOFF", "CLI-TOKEN-REUSE"];

function status(code: number, afterCommit: boolean, applies: readonly CallKind[]): FaultFamily {
  const id = afterCommit ? `status_${code}_after_commit` : `status_${code}`;
  const when = afterCommit
    ? "after the Gift Balance Inquiry's transaction was recorded"
    : "before anything was recorded";
  return {
    id,
    applies_to: applies,
    recorded: afterCommit,
    description: `Answers ${code} with a JSON:API error ${when}.`,
    duties: UNKNOWN_OUTCOME,
    effect: { type: "status", status: code, code: `upstream_${code}`, afterCommit },
  };
}

export const FAULT_FAMILIES: readonly FaultFamily[] = [
  status(500, false, INQUIRIES),
  status(502, false, INQUIRIES),
  status(503, false, INQUIRIES),
  status(500, true, ["gift"]),
  status(502, true, ["gift"]),
  status(503, true, ["gift"]),
  status(504, true, ["gift"]),
  {
    id: "reset_before",
    applies_to: ["gift", "balance", "lookup"],
    recorded: false,
    description: "Resets the connection (TCP RST) before the request is processed: no status, no body.",
    duties: UNKNOWN_OUTCOME,
    effect: { type: "reset", afterCommit: false },
  },
  {
    id: "reset_after_commit",
    applies_to: ["gift"],
    recorded: true,
    description: "Records the transaction, then resets the connection before any byte of the answer.",
    duties: UNKNOWN_OUTCOME,
    effect: { type: "reset", afterCommit: true },
  },
  {
    id: "body_cut",
    applies_to: ["gift", "balance", "lookup"],
    recorded: true,
    description: "Valid status and headers, then a JSON body cut in the middle (the message ends there).",
    duties: UNKNOWN_OUTCOME,
    effect: { type: "cut_body", close: false },
  },
  {
    id: "body_cut_close",
    applies_to: ["gift", "balance"],
    recorded: true,
    description: "Announces the whole body's Content-Length, sends half of it, then resets the connection.",
    duties: UNKNOWN_OUTCOME,
    effect: { type: "cut_body", close: true },
  },
  {
    id: "html_body",
    applies_to: ["gift", "balance", "lookup"],
    recorded: true,
    description: "The success status with an HTML page for a body (a proxy's maintenance page).",
    duties: UNKNOWN_OUTCOME,
    effect: { type: "html_body" },
  },
  {
    id: "late_headers",
    applies_to: ["gift", "balance", "lookup"],
    recorded: true,
    description: "Processes the call at once but sends the headers only 5 s after the client's timeout.",
    duties: SLOW,
    effect: { type: "late_headers", beyondTimeout: true },
  },
  {
    id: "late_within_timeout",
    applies_to: ["gift", "balance", "lookup"],
    recorded: true,
    description: "Answers normally after half the client's timeout: a patient client proceeds as usual.",
    duties: ["CLI-NO-DUPLICATE-WRITE"],
    effect: { type: "late_headers", beyondTimeout: false },
  },
  {
    id: "drip_body",
    applies_to: ["gift", "balance"],
    recorded: true,
    description: "Sends the headers at once, then the body a few bytes at a time until 5 s past the timeout.",
    duties: SLOW,
    effect: { type: "drip_body" },
  },
  {
    id: "status_401",
    applies_to: AUTHENTICATED,
    recorded: false,
    description: "Revokes every token of the client and answers 401 invalid_token.",
    duties: ["CLI-RENEW-401", "CLI-TOKEN-REUSE"],
    effect: { type: "revoke" },
  },
  {
    id: "status_403",
    applies_to: AUTHENTICATED,
    recorded: false,
    description: "Answers 403 insufficient_scope: the token is valid but lacks the scope.",
    duties: ["CLI-NO-RETRY-403"],
    effect: { type: "insufficient_scope" },
  },
  {
    id: "status_429_seconds",
    applies_to: AUTHENTICATED,
    recorded: false,
    description: "Answers 429 with Retry-After: 1 (seconds).",
    duties: ["CLI-RETRY-AFTER"],
    effect: { type: "retry_after", form: "seconds" },
  },
  {
    id: "status_429_date",
    applies_to: AUTHENTICATED,
    recorded: false,
    description: "Answers 429 with Retry-After as an HTTP-date 2 to 3 seconds ahead.",
    duties: ["CLI-RETRY-AFTER"],
    effect: { type: "retry_after", form: "date" },
  },
  {
    id: "status_429_long",
    applies_to: AUTHENTICATED,
    recorded: false,
    description: "Answers 429 with Retry-After: 180, above any client's patience: it should give up.",
    duties: ["CLI-RETRY-AFTER"],
    effect: { type: "retry_after", form: "long" },
  },
  {
    id: "status_429_bare",
    applies_to: AUTHENTICATED,
    recorded: false,
    description: "Answers 429 without Retry-After.",
    duties: ["CLI-RETRY-AFTER"],
    effect: { type: "retry_after", form: "absent" },
  },
  {
    id: "token_500",
    applies_to: ["token"],
    recorded: false,
    description: "The token endpoint answers 500.",
    duties: TOKEN_DOWN,
    effect: { type: "status", status: 500, code: "upstream_500", afterCommit: false },
  },
  {
    id: "token_503",
    applies_to: ["token"],
    recorded: false,
    description: "The token endpoint answers 503.",
    duties: TOKEN_DOWN,
    effect: { type: "status", status: 503, code: "upstream_503", afterCommit: false },
  },
  {
    id: "token_reset",
    applies_to: ["token"],
    recorded: false,
    description: "The token endpoint resets the connection.",
    duties: TOKEN_DOWN,
    effect: { type: "reset", afterCommit: false },
  },
  {
    id: "token_slow",
    applies_to: ["token"],
    recorded: false,
    description: "The token endpoint sends its headers only 5 s after the client's timeout.",
    duties: ["CLI-TIMEOUT-BOUND", "CLI-TOKEN-BACKOFF"],
    effect: { type: "late_headers", beyondTimeout: true },
  },
  {
    id: "token_html",
    applies_to: ["token"],
    recorded: false,
    description: "The token endpoint answers 200 with an HTML page.",
    duties: TOKEN_DOWN,
    effect: { type: "html_body" },
  },
  {
    id: "token_body_cut",
    applies_to: ["token"],
    recorded: false,
    description: "The token endpoint's JSON body is cut in the middle.",
    duties: TOKEN_DOWN,
    effect: { type: "cut_body", close: false },
  },
  {
    id: "token_expires_1",
    applies_to: ["token"],
    recorded: false,
    description: "Issues a token with expires_in 1: it is refused 401 a second later.",
    duties: ["CLI-RENEW-401", "CLI-TOKEN-REUSE"],
    effect: { type: "short_token" },
  },
  {
    id: "unknown_fields",
    applies_to: ["token", "gift", "balance", "lookup"],
    recorded: true,
    description: "Adds fields the specification does not show, at the top, in data and in meta.",
    duties: TOLERANT,
    effect: { type: "unknown_fields" },
  },
  {
    id: "unknown_response_status",
    applies_to: ["gift", "lookup"],
    recorded: true,
    description: "response_status is a value the specification does not show (approved_pending_review).",
    duties: TOLERANT,
    effect: { type: "unknown_enum", field: "response_status" },
  },
  {
    id: "unknown_response_code",
    applies_to: ["gift", "lookup"],
    recorded: true,
    description: "response_code is a value the specification does not show (approved_with_notice).",
    duties: TOLERANT,
    effect: { type: "unknown_enum", field: "response_code" },
  },
  {
    id: "extra_purse",
    applies_to: ["balance"],
    recorded: false,
    description: "The balances object holds a ninth purse the specification does not list (travel).",
    duties: TOLERANT,
    effect: { type: "extra_purse" },
  },
  {
    id: "lookup_404",
    applies_to: ["lookup"],
    recorded: false,
    description: "The lookup answers 404 transaction_not_found: as if the transaction was never recorded.",
    duties: ["CLI-NO-DUPLICATE-WRITE"],
    effect: { type: "not_found" },
  },
  {
    id: "lookup_500",
    applies_to: ["lookup"],
    recorded: false,
    description: "The lookup answers 500: the outcome is still unknown.",
    duties: ["CLI-NO-DUPLICATE-WRITE"],
    effect: { type: "status", status: 500, code: "upstream_500", afterCommit: false },
  },
  {
    id: "duplicate_409",
    applies_to: ["gift"],
    recorded: true,
    description:
      "Records the inquiry and answers 409 duplicate_request_id, as a resend of a recorded inquiry is answered.",
    duties: UNKNOWN_OUTCOME,
    effect: { type: "duplicate" },
  },
];

export const TOLERANT_READER_FAMILIES: ReadonlySet<string> = new Set(
  FAULT_FAMILIES.filter((family) => family.duties.includes("CLI-TOLERANT-READER")).map((family) => family.id),
);

const BY_ID = new Map(FAULT_FAMILIES.map((family) => [family.id, family]));

export function findFaultFamily(id: string): FaultFamily | undefined {
  return BY_ID.get(id);
}

/** What `GET /api/client-certifications/faults` answers for one family (the effect is the sandbox's business). */
export function describeFamily(family: FaultFamily) {
  const { id, applies_to, recorded, description, duties } = family;
  return { id, applies_to: [...applies_to], recorded, description, duties: [...duties] };
}

export interface PlannedFault {
  kind: CallKind;
  /** 1 for the first call of that kind after the plan was armed. */
  ordinal: number;
  family: string;
}

const MAX_PLAN_FAULTS = 16;

export function faultCode(fault: PlannedFault): string {
  return `${fault.kind}#${fault.ordinal}:${fault.family}`;
}

/** The plan's code: its faults in the order given, joined by `,` (the empty plan's code is ""). */
export function planCode(faults: readonly PlannedFault[]): string {
  return faults.map(faultCode).join(",");
}

export type ParsedPlan = { ok: true; faults: PlannedFault[] } | { ok: false; error: string };

/** Parses a plan code; an unknown family, a family on a kind it does not apply to, or a repeat is an error. */
export function parsePlanCode(code: string): ParsedPlan {
  const text = code.trim();
  if (text === "") return { ok: true, faults: [] };
  const faults: PlannedFault[] = [];
  const seen = new Set<string>();
  for (const part of text.split(",")) {
    const match = /^(token|gift|balance|lookup)#([1-9]\d{0,2}):([a-z0-9_]+)$/.exec(part.trim());
    if (!match)
      return { ok: false, error: `${JSON.stringify(part)} is not of the form <kind>#<n>:<family>.` };
    const [, kind, ordinal, familyId] = match as unknown as [string, CallKind, string, string];
    const family = findFaultFamily(familyId);
    if (!family) return { ok: false, error: `There is no fault family ${JSON.stringify(familyId)}.` };
    if (!family.applies_to.includes(kind))
      return {
        ok: false,
        error: `${familyId} applies to ${family.applies_to.join(", ")} calls, not to ${kind}.`,
      };
    const slot = `${kind}#${ordinal}`;
    if (seen.has(slot)) return { ok: false, error: `${slot} has two faults; a call takes one.` };
    seen.add(slot);
    faults.push({ kind, ordinal: Number(ordinal), family: familyId });
  }
  if (faults.length > MAX_PLAN_FAULTS)
    return { ok: false, error: `A plan has at most ${MAX_PLAN_FAULTS} faults.` };
  return { ok: true, faults };
}
