/** GBI: Gift Balance Inquiry (API specification §2.4, §4.3, §8). Each case runs only where Gift Balance Inquiry may. */
import "server-only";
import { randomUUID } from "node:crypto";
import { cents, dataField, describe, get } from "../checks";
import type { CaseContext } from "../context";
import type { CaseDefinition } from "./case-definition";

const is2xx = (status: number) => status >= 200 && status < 300;

/** One approved Gift Balance Inquiry on the active card with the run's token. */
async function approvedGift(context: CaseContext, requestId?: string) {
  const token = await context.sessionToken();
  const call = await context.gift({ token: token.accessToken, requestId });
  return { token, ...call };
}

/** Every case but GBI-01 needs an answer to work on; the status itself is GBI-01's and GBI-03's to judge. */
function answered(context: CaseContext, call: { status: number; record: { id: string } }): boolean {
  return context.checks.add(
    "the inquiry is processed",
    "HTTP 2xx with a data object",
    `HTTP ${call.status}`,
    is2xx(call.status),
    [call.record.id],
  );
}

/** The usual start of a case: an approved inquiry it can work on, or undefined (the failed check says why). */
async function answeredGift(context: CaseContext, requestId?: string) {
  const call = await approvedGift(context, requestId);
  return answered(context, call) ? call : undefined;
}

const giftFields: CaseDefinition = {
  id: "GBI-01",
  title: "Gift Balance Inquiry answers 201 with every field of API specification §2.4 in its form",
  spec_sections: ["2.4", "4.3", "4.5"],
  async run(context) {
    context.requireGift();
    const { status, body, record } = await approvedGift(context);
    const ids = [record.id];
    const { checks } = context;
    checks.status("HTTP status", 201, status, ids);
    const field = (name: string) => dataField(body, name);
    checks.uuid("transaction_id", field("transaction_id"), ids);
    checks.uuid("external_id", field("external_id"), ids);
    for (const name of ["entry_mode", "card_number", "pin_mode", "pin_verification_result", "timestamp"]) {
      checks.isString(name, field(name), ids);
    }
    checks.equal("transaction_type", "gift_balance_inquiry", field("transaction_type"), ids);
    checks.equal("response_status", "approved", field("response_status"), ids);
    checks.equal("response_code", "transaction_approved", field("response_code"), ids);
    checks.equal("response_message", "Approved", field("response_message"), ids);
    checks.money("balance", field("balance"), ids);
    for (const name of ["originator", "target"]) checks.isObject(name, field(name), ids);
  },
};

const giftEcho: CaseDefinition = {
  id: "GBI-02",
  title: "The echoed fields equal the request",
  spec_sections: ["2.3", "2.4"],
  async run(context) {
    context.requireGift();
    const call = await answeredGift(context);
    if (!call) return;
    const sent = context.card();
    for (const name of ["entry_mode", "card_number", "pin_mode"] as const) {
      context.checks.equal(name, sent[name], dataField(call.body, name), [call.record.id]);
    }
  },
};

const declined: CaseDefinition = {
  id: "GBI-03",
  title: "A declined card still records a transaction (201, declined)",
  spec_sections: ["3", "4.3", "7"],
  async run(context) {
    context.requireGift();
    const card = context.profile.cards.declined;
    if (!card)
      return context.notApplicable("Needs a card the upstream declines (cards.declined in the profile).");
    const token = await context.sessionToken();
    const call = await context.gift({ token: token.accessToken, cardNumber: card });
    const ids = [call.record.id];
    const field = (name: string) => dataField(call.body, name);
    context.checks.status("HTTP status", 201, call.status, ids);
    context.checks.equal("response_status", "declined", field("response_status"), ids);
    const code = field("response_code");
    context.checks.add(
      "response_code",
      "a machine-readable code other than transaction_approved",
      describe(code),
      typeof code === "string" && code !== "" && code !== "transaction_approved",
      ids,
    );
    context.checks.text("response_message", "a human-readable message", field("response_message"), ids);
    context.checks.uuid("transaction_id (a transaction is recorded)", field("transaction_id"), ids);
    if (context.profile.transactionLookup && is2xx(call.status)) {
      const found = await context.lookup(token.accessToken, call.requestId);
      context.checks.equal(
        "the declined transaction is findable by its Request Id",
        field("transaction_id"),
        dataField(found.body, "transaction_id"),
        [found.record.id],
      );
    }
  },
};

const distinctIds: CaseDefinition = {
  id: "GBI-04",
  title: "Distinct Request Ids give distinct transactions",
  spec_sections: ["4.3", "8"],
  async run(context) {
    context.requireGift();
    const first = await answeredGift(context);
    const second = await answeredGift(context);
    if (!first || !second) return;
    const ids = [first.record.id, second.record.id];
    for (const name of ["transaction_id", "external_id"]) {
      context.checks.distinct(
        `two different ${name}s`,
        dataField(first.body, name),
        dataField(second.body, name),
        ids,
      );
    }
  },
};

const reusedId: CaseDefinition = {
  id: "GBI-05",
  title: "A reused Request Id (the specification is silent on the answer)",
  spec_sections: ["4.3", "8"],
  observational: true,
  async run(context) {
    context.requireGift();
    const requestId = randomUUID();
    const first = await answeredGift(context, requestId);
    if (!first) return;
    const second = await approvedGift(context, requestId);
    const ids = [first.record.id, second.record.id];
    const firstId = dataField(first.body, "transaction_id");
    const secondId = dataField(second.body, "transaction_id");
    const errors = get(second.body, "errors");
    const errorCode = Array.isArray(errors) ? get(errors[0], "code") : undefined;
    context.checks.observe(
      "the second inquiry with the same X-Request-Id",
      "not shown by the specification (API specification §8 requires a unique Request Id)",
      `HTTP ${second.status}${typeof errorCode === "string" ? ` ${errorCode}` : ""}${typeof secondId === "string" ? `, transaction ${secondId}` : ""}`,
      ids,
    );
    // What the specification does fix: a Request Id finds one transaction (API specification §4.3.3), so a second, different
    // transaction under the same id is a failure, whatever the status.
    const secondTransaction = is2xx(second.status) && typeof secondId === "string" && secondId !== firstId;
    context.checks.add(
      "a Request Id identifies one transaction",
      "no second, different transaction for a reused Request Id (refused, or the first one answered again)",
      secondTransaction
        ? `a second transaction ${describe(secondId)} besides ${describe(firstId)}`
        : "no second transaction",
      !secondTransaction,
      ids,
    );
  },
};

const findable: CaseDefinition = {
  id: "GBI-06",
  title: "The transaction is findable by its Request Id",
  spec_sections: ["4.3", "4.5"],
  async run(context) {
    context.requireGift();
    context.requireLookup();
    const call = await answeredGift(context);
    if (!call) return;
    const found = await context.lookup(call.token.accessToken, call.requestId);
    context.checks.status("Lookup Transaction by Request Id", 200, found.status, [found.record.id]);
    context.checks.equal(
      "the transaction found",
      dataField(call.body, "transaction_id"),
      dataField(found.body, "transaction_id"),
      [call.record.id, found.record.id],
    );
  },
};

const giftEqualsPurse: CaseDefinition = {
  id: "GBI-07",
  title: "The gift balance equals the Gift purse of Balance Inquiry",
  spec_sections: ["4.3", "2.5"],
  async run(context) {
    context.requireGift();
    const call = await answeredGift(context);
    if (!call) return;
    const purses = await context.balance({ token: call.token.accessToken });
    const gift = dataField(call.body, "balance");
    const purse = get(purses.body, "data", "balances", "gift");
    const a = cents(gift);
    context.checks.add(
      "balance = balances.gift",
      `the same amount as balances.gift ${describe(purse)}`,
      describe(gift),
      a !== null && a === cents(purse),
      [call.record.id, purses.record.id],
    );
  },
};

export const GIFT_CASES = [giftFields, giftEcho, declined, distinctIds, reusedId, findable, giftEqualsPurse];
