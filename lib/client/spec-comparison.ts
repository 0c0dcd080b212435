/**
 * The API specification §4.5 table ("Choosing between the two"), filled with what one Gift Balance Inquiry and
 * one Balance Inquiry for the same card actually returned, each cell judged against the promise, plus the
 * check that the Gift Balance Inquiry's `balance` equals the Balance Inquiry's `balances.gift`.
 */
import type { ExchangeRecord } from "@/lib/shared/contracts";
import { summaryTransactionId } from "@/lib/shared/exchange-summary";
import { SPEC_PURSES, formatCents, isSpecAmount, parseAmountCents } from "./compare-money";
import { recordCard, responseData, responseError } from "./record-diff";

/**
 * - `pass`: observed in the response and matches the specification;
 * - `inferred`: consistent with the specification, but not observed directly (e.g. that a Balance Inquiry is
 *   in no history: there is no Request Id to look up; or a gift run's history before its lookup answered);
 * - `fail`: observed and contradicts the specification;
 * - `unknown`: no run, or the run failed before the behaviour could show.
 */
export type Verdict = "pass" | "inferred" | "fail" | "unknown";

export interface SpecCell {
  /** What the specification promises, in its own words. */
  expected: string;
  /** What the run returned. */
  live: string;
  verdict: Verdict;
  /** Why the verdict, when it is not obvious from `live`. */
  note?: string;
}

type SpecRowId = "status" | "transaction" | "balance" | "result" | "history" | "request_id";

interface SpecRow {
  id: SpecRowId;
  label: string;
  gift: SpecCell;
  balance: SpecCell;
}

export interface GiftBalanceCheck {
  verdict: "equal" | "different" | "unavailable";
  /** `data.balance` of the Gift Balance Inquiry. */
  gift: string | null;
  /** `data.balances.gift` of the Balance Inquiry. */
  balancesGift: string | null;
  /** A sentence a person can read. */
  message: string;
}

export interface SpecComparison {
  /** Masked card numbers of the two runs. */
  cards: { gift: string | null; balance: string | null };
  rows: SpecRow[];
  giftCheck: GiftBalanceCheck;
  /** Every cell pass or inferred, and the gift balances equal. */
  conforms: boolean;
}

/** The result of looking the Gift Balance Inquiry's transaction up by its Request Id, when available. */
export interface RequestIdLookup {
  found: boolean;
  status: number;
  /** `data.transaction_id` of the transaction found, compared with the Gift Balance Inquiry's. */
  transaction_id?: string | null;
}

/** Reads a Lookup Transaction by Request Id record: found when the upstream answered 200 with a transaction. */
export function requestIdLookupOf(record: ExchangeRecord): RequestIdLookup {
  const status = record.response.status;
  const transactionId = status === 200 ? summaryTransactionId(record) : null;
  return { found: transactionId !== null, status, transaction_id: transactionId };
}

type JsonObject = Record<string, unknown>;

const NOT_RUN: Omit<SpecCell, "expected"> = { live: "not run", verdict: "unknown" };

const EXPECTED = {
  status: { gift: "201", balance: "200" },
  transaction: { gift: "yes", balance: "no" },
  balance: { gift: "single value for the Gift purse", balance: "balances object with all purses" },
  result: { gift: "yes", balance: "none" },
  history: { gift: "yes", balance: "no" },
  request_id: { gift: "yes", balance: "no" },
} as const satisfies Record<SpecRowId, { gift: string; balance: string }>;

const LABELS: Record<SpecRowId, string> = {
  status: "Success status",
  transaction: "Creates a transaction",
  balance: "Balance in response",
  result: "Approved or declined result",
  history: "In transaction history",
  request_id: "Findable by Request Id",
};

function isSuccess(record: ExchangeRecord, expectedStatus: number): boolean {
  return record.response.status === expectedStatus && !record.response.body_is_text;
}

/** A short reason a run did not succeed: "500 server_error", "429 rate_limited", "201 with a body that is not JSON". */
function failureSummary(record: ExchangeRecord): string {
  const { status, body_is_text } = record.response;
  if (body_is_text) return `${status} with a body that is not JSON`;
  const error = responseError(record);
  return error?.code ? `${status} ${error.code}` : `${status}`;
}

function transactionIdOf(data: JsonObject | null): string | null {
  const value = data?.transaction_id;
  return typeof value === "string" && value.length > 0 ? value : null;
}

function requestIdOf(record: ExchangeRecord): string | null {
  if (record.request_id) return record.request_id;
  const header = Object.entries(record.request.headers).find(
    ([name]) => name.toLowerCase() === "x-request-id",
  );
  return header?.[1] ?? null;
}

function cell(id: SpecRowId, side: "gift" | "balance", rest: Omit<SpecCell, "expected">): SpecCell {
  return { expected: EXPECTED[id][side], ...rest };
}

/** Every row given the same live value: a side that did not run, or did not succeed. */
function uniformCells(
  side: "gift" | "balance",
  rest: Omit<SpecCell, "expected">,
): Record<SpecRowId, SpecCell> {
  return Object.fromEntries(
    (Object.keys(EXPECTED) as SpecRowId[]).map((id) => [id, cell(id, side, rest)]),
  ) as Record<SpecRowId, SpecCell>;
}

/** The status row of a side that ran, and its whole column when the run did not succeed (then no row says more). */
function statusRow(
  record: ExchangeRecord,
  side: "gift" | "balance",
  expectedStatus: number,
): { statusCell: SpecCell; failed: Record<SpecRowId, SpecCell> | null } {
  const status = record.response.status;
  const statusCell = cell("status", side, {
    live: String(status),
    verdict: status === expectedStatus ? "pass" : "fail",
    ...(status === expectedStatus ? {} : { note: failureSummary(record) }),
  });
  if (isSuccess(record, expectedStatus)) return { statusCell, failed: null };
  const unknown = {
    live: failureSummary(record),
    verdict: "unknown" as const,
    note: "The run did not succeed.",
  };
  return { statusCell, failed: { ...uniformCells(side, unknown), status: statusCell } };
}

function giftCells(record: ExchangeRecord | null, lookup?: RequestIdLookup): Record<SpecRowId, SpecCell> {
  if (!record) return uniformCells("gift", NOT_RUN);
  const { statusCell, failed } = statusRow(record, "gift", 201);
  const data = failed ? null : responseData(record);
  const transactionId = transactionIdOf(data);
  const requestId = requestIdOf(record);
  const found = { lookup, transactionId, requestId };
  const history = lookupCell("history", found, {
    live: transactionId ? "yes, a transaction_id was assigned" : "no transaction_id",
    verdict: transactionId ? "inferred" : "fail",
    note: "Inferred from the transaction_id: a complete transaction is in the card's history.",
  });
  const findable = lookupCell("request_id", found, {
    live:
      requestId && transactionId
        ? `yes, by ${requestId}`
        : requestId
          ? "Request Id sent, no transaction"
          : "no Request Id sent",
    verdict: requestId && transactionId ? "inferred" : "fail",
    note: "The transaction was recorded under the X-Request-Id that was sent.",
  });
  // The lookup is the one source of truth for history and findability, also when the inquiry's own answer
  // could not be read (e.g. a 201 whose body is not JSON): the table then says what the lookup proved.
  if (failed) return lookup ? { ...failed, history, request_id: findable } : failed;
  return { status: statusCell, ...giftAnswerCells(data, transactionId), history, request_id: findable };
}

/**
 * History or findability: what the lookup by Request Id proved, or else what the answer lets one infer. A
 * lookup is verified only when it found this very transaction; a 404 is the upstream saying "not findable";
 * any other answer (5xx, 429, …) says nothing either way.
 */
function lookupCell(
  id: "history" | "request_id",
  {
    lookup,
    transactionId,
    requestId,
  }: { lookup?: RequestIdLookup; transactionId: string | null; requestId: string | null },
  inferred: Omit<SpecCell, "expected">,
): SpecCell {
  if (!lookup) return cell(id, "gift", inferred);
  const sameTransaction =
    lookup.found === true &&
    (lookup.transaction_id == null || transactionId === null || lookup.transaction_id === transactionId);
  if (sameTransaction) {
    return cell(id, "gift", {
      live:
        transactionId === null
          ? `yes, lookup by ${requestId ?? "its Request Id"} answered ${lookup.status} with transaction_id ${lookup.transaction_id ?? "?"}`
          : `yes, lookup by ${requestId ?? "its Request Id"} answered ${lookup.status} with this transaction_id`,
      verdict: "pass",
    });
  }
  if (lookup.found) {
    return cell(id, "gift", {
      live: `lookup found another transaction_id, ${lookup.transaction_id ?? "?"}`,
      verdict: "fail",
    });
  }
  return cell(id, "gift", {
    live: `not found (lookup answered ${lookup.status})`,
    verdict: lookup.status === 404 ? "fail" : "unknown",
    ...(lookup.status === 404 ? {} : { note: "The lookup did not succeed." }),
  });
}

/** The rows a successful Gift Balance Inquiry's own answer decides: transaction, balance and result. */
function giftAnswerCells(data: ReturnType<typeof responseData>, transactionId: string | null) {
  const balance = data?.balance;
  const responseStatus = data?.response_status;
  const hasBalances = data !== null && "balances" in data;
  return {
    transaction: cell("transaction", "gift", {
      live: transactionId ? `yes, transaction_id ${transactionId}` : "no transaction_id in the response",
      verdict: transactionId ? "pass" : "fail",
    }),
    balance: cell("balance", "gift", {
      live: isSpecAmount(balance) ? `balance ${balance}` : `balance ${JSON.stringify(balance ?? null)}`,
      verdict: isSpecAmount(balance) && !hasBalances ? "pass" : "fail",
      ...(hasBalances ? { note: "The response also carries a balances object." } : {}),
      ...(!isSpecAmount(balance) ? { note: "Expected a decimal string with two fraction digits." } : {}),
    }),
    result: cell("result", "gift", {
      live:
        typeof responseStatus === "string"
          ? [responseStatus, data?.response_code].filter((part) => typeof part === "string").join(", ")
          : "no response_status",
      verdict: responseStatus === "approved" || responseStatus === "declined" ? "pass" : "fail",
    }),
  };
}

function balanceCells(record: ExchangeRecord | null): Record<SpecRowId, SpecCell> {
  if (!record) return uniformCells("balance", NOT_RUN);
  const { statusCell, failed } = statusRow(record, "balance", 200);
  if (failed) return failed;

  const data = responseData(record);
  const transactionId = transactionIdOf(data);
  const balances = data?.balances;
  const balancesObject =
    typeof balances === "object" && balances !== null && !Array.isArray(balances)
      ? (balances as JsonObject)
      : null;
  const missing = SPEC_PURSES.filter((purse) => !isSpecAmount(balancesObject?.[purse]));
  const hasResult = data !== null && ("response_status" in data || "response_code" in data);

  return {
    status: statusCell,
    transaction: cell("transaction", "balance", {
      live: transactionId ? `yes, transaction_id ${transactionId}` : "no transaction_id",
      verdict: transactionId ? "fail" : "pass",
    }),
    balance: cell("balance", "balance", {
      live: balancesObject
        ? `balances with ${SPEC_PURSES.length - missing.length} of ${SPEC_PURSES.length} purses`
        : "no balances object",
      verdict: balancesObject && missing.length === 0 ? "pass" : "fail",
      ...(balancesObject && missing.length > 0
        ? { note: `Missing or malformed: ${missing.join(", ")}.` }
        : {}),
    }),
    result: cell("result", "balance", {
      live: hasResult ? `response_status ${JSON.stringify(data?.response_status ?? null)}` : "none",
      verdict: hasResult ? "fail" : "pass",
    }),
    history: cell("history", "balance", {
      live: transactionId ? "a transaction_id was assigned" : "no, nothing recorded",
      verdict: transactionId ? "fail" : "inferred",
      note: "Inferred: without a transaction there is nothing in the card's history.",
    }),
    request_id: cell("request_id", "balance", {
      live: transactionId ? "a transaction_id was assigned" : "no, no transaction to find",
      verdict: transactionId ? "fail" : "inferred",
      note: "Inferred: without a transaction there is nothing to find by Request Id.",
    }),
  };
}

export function compareGiftBalances(
  gift: ExchangeRecord | null,
  balance: ExchangeRecord | null,
): GiftBalanceCheck {
  const giftValue = gift && isSuccess(gift, 201) ? responseData(gift)?.balance : undefined;
  const balancesValue = (() => {
    if (!balance || !isSuccess(balance, 200)) return undefined;
    const balances = responseData(balance)?.balances;
    return typeof balances === "object" && balances !== null ? (balances as JsonObject).gift : undefined;
  })();
  const giftText = typeof giftValue === "string" ? giftValue : null;
  const balancesText = typeof balancesValue === "string" ? balancesValue : null;
  const unavailable = (message: string): GiftBalanceCheck => ({
    verdict: "unavailable",
    gift: giftText,
    balancesGift: balancesText,
    message,
  });

  if (!gift || !balance) return unavailable("Run both operations to compare the Gift purse.");
  if (!isSuccess(gift, 201))
    return unavailable(`The Gift Balance Inquiry did not succeed (${failureSummary(gift)}).`);
  if (!isSuccess(balance, 200))
    return unavailable(`The Balance Inquiry did not succeed (${failureSummary(balance)}).`);
  const giftCard = recordCard(gift);
  const balanceCard = recordCard(balance);
  if (giftCard && balanceCard && giftCard !== balanceCard) {
    return unavailable(`The runs are for different cards (${giftCard} and ${balanceCard}).`);
  }
  const giftData = responseData(gift);
  if (giftData?.response_status === "declined") {
    const code = typeof giftData.response_code === "string" ? ` ${giftData.response_code}` : "";
    // A declined inquiry's balance is not the purse's (the sandbox answers 0.00): comparing would mislead.
    return unavailable(
      `The Gift Balance Inquiry was declined${code}: its balance ${giftText ?? "—"} is not compared with ` +
        `balances.gift ${balancesText ?? "—"}.`,
    );
  }
  const giftCents = parseAmountCents(giftValue);
  const balancesCents = parseAmountCents(balancesValue);
  if (giftCents === null) return unavailable("The Gift Balance Inquiry's balance is not a decimal amount.");
  if (balancesCents === null)
    return unavailable("The Balance Inquiry's balances.gift is not a decimal amount.");
  if (giftCents === balancesCents) {
    return {
      verdict: "equal",
      gift: giftText,
      balancesGift: balancesText,
      message: `The Gift balance ${formatCents(giftCents)} equals balances.gift ${formatCents(balancesCents)}.`,
    };
  }
  return {
    verdict: "different",
    gift: giftText,
    balancesGift: balancesText,
    message: `The Gift balance ${formatCents(giftCents)} differs from balances.gift ${formatCents(balancesCents)}.`,
  };
}

export function buildSpecComparison(
  gift: ExchangeRecord | null,
  balance: ExchangeRecord | null,
  options: { lookup?: RequestIdLookup } = {},
): SpecComparison {
  const giftSide = giftCells(gift, options.lookup);
  const balanceSide = balanceCells(balance);
  const rows = (Object.keys(EXPECTED) as SpecRowId[]).map((id) => ({
    id,
    label: LABELS[id],
    gift: giftSide[id],
    balance: balanceSide[id],
  }));
  const giftCheck = compareGiftBalances(gift, balance);
  const conforms =
    rows.every((row) =>
      [row.gift, row.balance].every((c) => c.verdict === "pass" || c.verdict === "inferred"),
    ) && giftCheck.verdict === "equal";
  return {
    cards: { gift: gift ? recordCard(gift) : null, balance: balance ? recordCard(balance) : null },
    rows,
    giftCheck,
    conforms,
  };
}
