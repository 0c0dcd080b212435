/**
 * Purse-aware comparison of two exchange records (history entries): sandbox vs production, before vs after.
 *
 * Three views of one comparison:
 * - `facts`: the values a person compares first (HTTP status, approved/declined, codes, card);
 * - `purses`: every purse before/after with the change in integer cents;
 * - `fields`: a flat field-by-field diff of the request and response, where volatile fields (identifiers,
 *   timestamps, durations, dates in headers) are hidden unless asked for, since they differ on every run.
 */
import { readableRequestBody } from "@/lib/shared/free-form";
import { isOutcomeUnknown } from "./outcome-unknown";
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { exchangeSummary, responseData } from "@/lib/shared/exchange-summary";
import { operationLabel } from "@/lib/shared/operations";
import { SPEC_PURSES, parseAmountCents, purseLabel } from "./compare-money";
import { responseError } from "./response-error";

// ---------- reading a record ----------

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringAt(object: JsonObject | null, key: string): string | null {
  const value = object?.[key];
  return typeof value === "string" ? value : null;
}

export { responseData };
export { responseError };

/** Which purses a response reports: every purse (Balance Inquiry), the Gift purse only, or none. */
export type PurseCoverage = "all" | "gift" | "none";

/** Purse name → amount text as the upstream sent it, read from the body's shape rather than the operation. */
export function purseBalances(record: ExchangeRecord): {
  coverage: PurseCoverage;
  amounts: Record<string, unknown>;
} {
  const data = responseData(record);
  if (data && isObject(data.balances)) return { coverage: "all", amounts: { ...data.balances } };
  if (data && "balance" in data) return { coverage: "gift", amounts: { gift: data.balance } };
  return { coverage: "none", amounts: {} };
}

/** The masked card number the record is about: from the response when echoed, else from the request. */
export function recordCard(record: ExchangeRecord): string | null {
  const summary = exchangeSummary(record);
  const fromResponse = summary && "card_number" in summary ? summary.card_number : null;
  if (fromResponse) return fromResponse;
  const requestBody = readableRequestBody(record.request.body);
  if (!isObject(requestBody)) return null;
  const requestData = isObject(requestBody.data) ? requestBody.data : requestBody;
  return stringAt(requestData, "card_number");
}

/** Last four digits of a (masked) card number, for filters and labels. */
export function cardLastFour(card: string | null): string | null {
  const digits = card?.match(/(\d{4})\s*$/);
  return digits?.[1] ?? null;
}

// ---------- volatile fields ----------

/** Keys whose values differ on every run by design. */
const VOLATILE_KEYS = new Set([
  "id",
  "transaction_id",
  "external_id",
  "timestamp",
  "system_time",
  "request_id",
  "started_at",
  "duration_ms",
  "fingerprint",
  "iat",
  "exp",
  "nbf",
  "jti",
]);

/** Headers that carry identifiers, times or cache validators. */
const VOLATILE_HEADERS = new Set([
  "date",
  "x-request-id",
  "request-id",
  "x-correlation-id",
  "x-trace-id",
  "traceparent",
  "tracestate",
  "etag",
  "last-modified",
  "expires",
  "age",
  "x-response-time",
  "x-runtime",
  "server-timing",
]);

/** An HTTP date ("Tue, 14 Jan 2025 10:00:00 GMT") in any header makes that header volatile. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * `path` is a list of segments such as ["response", "body", "data", "transaction_id"] or
 * ["request", "headers", "x-request-id"]; array indexes are numbers.
 */
export function isVolatileField(path: readonly (string | number)[], value?: unknown): boolean {
  const [section, part] = path;
  const last = path[path.length - 1];
  if ((section === "request" || section === "response") && part === "headers" && path.length === 3) {
    const name = String(last).toLowerCase();
    return VOLATILE_HEADERS.has(name) || (typeof value === "string" && HTTP_DATE.test(value.trim()));
  }
  // How the console got its token for a run (acquired, renewed) says nothing about the API's answer: the first
  // run of a session acquires one and the next reuses it, yet their responses match.
  if (section === "record" && part === "token_events") return true;
  if (typeof last !== "string") return false;
  const key = last.toLowerCase();
  return VOLATILE_KEYS.has(key) || key.endsWith("_at") || key.endsWith("_ms");
}

// ---------- flattening ----------

type FieldPath = readonly (string | number)[];
type Leaves = Map<string, { path: FieldPath; value: unknown }>;

/** "response.body.data.balances.gift", "request.headers.x-request-id", "record.token_events[0].type". */
function formatFieldPath(path: FieldPath): string {
  return path.reduce<string>(
    (text, segment) =>
      typeof segment === "number" ? `${text}[${segment}]` : text ? `${text}.${segment}` : segment,
    "",
  );
}

function collectLeaves(value: unknown, path: FieldPath, leaves: Leaves): void {
  if (Array.isArray(value) && value.length > 0) {
    value.forEach((item, index) => collectLeaves(item, [...path, index], leaves));
    return;
  }
  if (isObject(value) && Object.keys(value).length > 0) {
    for (const [key, item] of Object.entries(value)) collectLeaves(item, [...path, key], leaves);
    return;
  }
  leaves.set(formatFieldPath(path), { path, value });
}

function lowercaseHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/** The comparable leaves of a record; headers are compared by lower-cased name. */
function recordLeaves(record: ExchangeRecord): Leaves {
  const leaves: Leaves = new Map();
  const recordPart = {
    // Operation and environment are compared in `facts`; here only what varies per run.
    id: record.id,
    request_id: record.request_id,
    started_at: record.started_at,
    duration_ms: record.duration_ms,
    token_events: record.token_events,
    timings: record.timings,
  };
  for (const [key, value] of Object.entries(recordPart)) {
    if (value !== undefined) collectLeaves(value, ["record", key], leaves);
  }
  const { request, response } = record;
  collectLeaves(request.method, ["request", "method"], leaves);
  collectLeaves(request.url, ["request", "url"], leaves);
  collectLeaves(lowercaseHeaders(request.headers), ["request", "headers"], leaves);
  collectLeaves(readableRequestBody(request.body), ["request", "body"], leaves);
  collectLeaves(isOutcomeUnknown(record) ? "no answer" : response.status, ["response", "status"], leaves);
  collectLeaves(lowercaseHeaders(response.headers), ["response", "headers"], leaves);
  collectLeaves(response.body, ["response", "body"], leaves);
  if (response.body_is_text) collectLeaves(true, ["response", "body_is_text"], leaves);
  if (response.schema_issues?.length)
    collectLeaves(response.schema_issues, ["response", "schema_issues"], leaves);
  return leaves;
}

/** Deep equality for JSON leaves (primitives, and the empty object / array). */
function sameLeaf(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

// ---------- the comparison ----------

type FieldChange = "same" | "changed" | "added" | "removed";

export interface FieldDiff {
  /** Display path, e.g. "response.body.data.balances.gift". */
  key: string;
  path: FieldPath;
  section: "record" | "request" | "response";
  change: FieldChange;
  /** Absent (undefined) when the field is missing on that side. */
  before?: unknown;
  after?: unknown;
  volatile: boolean;
}

type PurseChange = "same" | "changed" | "added" | "removed" | "not_reported" | "unreadable";

export interface PurseDiffRow {
  purse: string;
  label: string;
  /** The amounts as sent (null when that side has no value for this purse). */
  before: string | null;
  after: string | null;
  beforeCents: number | null;
  afterCents: number | null;
  /** after − before in cents, when both sides are readable amounts. */
  deltaCents: number | null;
  /**
   * `not_reported`: one side's operation does not report this purse (a Gift Balance Inquiry only has the
   * Gift purse), so there is nothing to compare; `unreadable`: a value is not a decimal amount.
   */
  change: PurseChange;
}

interface FactRow {
  label: string;
  before: string | null;
  after: string | null;
  changed: boolean;
}

export interface RecordDiffOptions {
  /** Include identifiers, timestamps, durations and dates in headers. Default false. */
  showVolatile?: boolean;
  /** Include fields that are equal on both sides. Default false. */
  showUnchanged?: boolean;
}

export interface RecordDiff {
  facts: FactRow[];
  purseCoverage: { before: PurseCoverage; after: PurseCoverage };
  purses: PurseDiffRow[];
  /** The fields to show, given the options, in a stable order (record, request, response). */
  fields: FieldDiff[];
  /** Volatile fields that differ but are hidden because `showVolatile` is off. */
  hiddenVolatileChanges: number;
  /** Fields that differ and are not volatile. */
  meaningfulChanges: number;
  /** True when the responses differ in volatile fields only (same status, headers and body otherwise). */
  equivalent: boolean;
  /** Why a comparison may mislead: different cards, different operations. */
  warnings: string[];
}

function textOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}

function fact(label: string, before: unknown, after: unknown): FactRow {
  const beforeText = textOf(before);
  const afterText = textOf(after);
  return { label, before: beforeText, after: afterText, changed: beforeText !== afterText };
}

/** The gift answer's fields (a lookup's found transaction too): what the facts compare. */
function transactionFields(record: ExchangeRecord) {
  const summary = exchangeSummary(record);
  return summary?.operation === "gift_balance_inquiry" || summary?.operation === "transaction_lookup"
    ? summary
    : null;
}

/** A run that got no answer is kept with status 0, which is no HTTP status. */
const statusFact = (record: ExchangeRecord) =>
  isOutcomeUnknown(record) ? "No answer" : record.response.status;

function recordFacts(before: ExchangeRecord, after: ExchangeRecord): FactRow[] {
  const beforeData = transactionFields(before);
  const afterData = transactionFields(after);
  const beforeError = responseError(before);
  const afterError = responseError(after);
  const rows = [
    fact("Operation", operationLabel(before.operation), operationLabel(after.operation)),
    fact("Environment", before.environment, after.environment),
    fact("Card", recordCard(before), recordCard(after)),
    fact("HTTP status", statusFact(before), statusFact(after)),
    fact("Result (response_status)", beforeData?.response_status, afterData?.response_status),
    fact("response_code", beforeData?.response_code, afterData?.response_code),
    fact("response_message", beforeData?.response_message, afterData?.response_message),
    fact("Error code", beforeError?.code, afterError?.code),
    fact(
      "Body",
      before.response.body_is_text ? "not JSON" : "JSON",
      after.response.body_is_text ? "not JSON" : "JSON",
    ),
  ];
  // A row that is empty on both sides says nothing (e.g. no error on either run).
  return rows.filter((row) => row.before !== null || row.after !== null);
}

function diffPurses(before: ExchangeRecord, after: ExchangeRecord): RecordDiff["purses"] {
  const left = purseBalances(before);
  const right = purseBalances(after);
  const names = new Set([...Object.keys(left.amounts), ...Object.keys(right.amounts)]);
  const ordered = [
    ...SPEC_PURSES.filter((purse) => names.has(purse)),
    ...[...names].filter((name) => !(SPEC_PURSES as readonly string[]).includes(name)).sort(),
  ];
  return ordered.map((purse) => {
    const beforeValue = left.amounts[purse];
    const afterValue = right.amounts[purse];
    const beforeCents = parseAmountCents(beforeValue);
    const afterCents = parseAmountCents(afterValue);
    const beforeMissing = beforeValue === undefined || beforeValue === null;
    const afterMissing = afterValue === undefined || afterValue === null;
    let change: PurseChange;
    if (beforeMissing || afterMissing) {
      // Missing from a gift-only response is expected; missing from a full balances object is a change.
      const missingCoverage = beforeMissing ? left.coverage : right.coverage;
      change = missingCoverage === "all" ? (beforeMissing ? "added" : "removed") : "not_reported";
    } else if (beforeCents === null || afterCents === null) {
      change = textOf(beforeValue) === textOf(afterValue) ? "same" : "unreadable";
    } else {
      change = beforeCents === afterCents ? "same" : "changed";
    }
    return {
      purse,
      label: purseLabel(purse),
      before: beforeMissing ? null : textOf(beforeValue),
      after: afterMissing ? null : textOf(afterValue),
      beforeCents,
      afterCents,
      deltaCents: beforeCents !== null && afterCents !== null ? afterCents - beforeCents : null,
      change,
    };
  });
}

export function diffRecords(
  before: ExchangeRecord,
  after: ExchangeRecord,
  options: RecordDiffOptions = {},
): RecordDiff {
  const all = fieldDiffs(before, after);
  const differing = all.filter((field) => field.change !== "same");
  const hiddenVolatileChanges = options.showVolatile ? 0 : differing.filter((field) => field.volatile).length;
  const meaningfulChanges = differing.filter((field) => !field.volatile).length;
  const fields = all.filter(
    (field) =>
      (options.showUnchanged || field.change !== "same") && (options.showVolatile || !field.volatile),
  );
  return {
    facts: recordFacts(before, after),
    purseCoverage: { before: purseBalances(before).coverage, after: purseBalances(after).coverage },
    purses: diffPurses(before, after),
    fields,
    hiddenVolatileChanges,
    meaningfulChanges,
    equivalent: differing.every((field) => field.volatile || field.section !== "response"),
    warnings: diffWarnings(before, after),
  };
}

const SECTION_ORDER = { record: 0, request: 1, response: 2 } as const;

/** Every leaf of either record, compared; sections in order, fields within a section in first-seen order. */
function fieldDiffs(before: ExchangeRecord, after: ExchangeRecord): FieldDiff[] {
  const left = recordLeaves(before);
  const right = recordLeaves(after);
  const keys = [...left.keys(), ...[...right.keys()].filter((key) => !left.has(key))];
  const all: FieldDiff[] = keys.map((key) => {
    const leftLeaf = left.get(key);
    const rightLeaf = right.get(key);
    const path = (leftLeaf ?? rightLeaf)!.path;
    const change: FieldChange = !leftLeaf
      ? "added"
      : !rightLeaf
        ? "removed"
        : sameLeaf(leftLeaf.value, rightLeaf.value)
          ? "same"
          : "changed";
    return {
      key,
      path,
      section: path[0] as FieldDiff["section"],
      change,
      ...(leftLeaf ? { before: leftLeaf.value } : {}),
      ...(rightLeaf ? { after: rightLeaf.value } : {}),
      volatile: isVolatileField(path, leftLeaf?.value ?? rightLeaf?.value),
    };
  });
  return all.sort((a, b) => SECTION_ORDER[a.section] - SECTION_ORDER[b.section]);
}

/** What makes two runs a doubtful comparison: different cards, or different operations. */
function diffWarnings(before: ExchangeRecord, after: ExchangeRecord): string[] {
  const warnings: string[] = [];
  const beforeCard = recordCard(before);
  const afterCard = recordCard(after);
  if (beforeCard && afterCard && beforeCard !== afterCard) {
    warnings.push(`The runs are for different cards (${beforeCard} and ${afterCard}).`);
  }
  if (before.operation !== after.operation) {
    warnings.push(
      `The runs are different operations (${operationLabel(before.operation)} and ${operationLabel(after.operation)}): ` +
        "only the Gift purse can be compared between them.",
    );
  }
  return warnings;
}
