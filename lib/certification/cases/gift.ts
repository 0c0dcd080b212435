/** GBI: Gift Balance Inquiry (spec §2.4, §4.3, §8). Each case runs only where Gift Balance Inquiry may. */
import "server-only";
import { randomUUID } from "node:crypto";
import { cents, describe, get } from "../checks";
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

const giftFields: CaseDefinition = {
  id: "GBI-01",
  title: "Gift Balance Inquiry answers 201 with every field of §2.4 in its form",
  spec_sections: ["2.4", "4.3", "4.5"],
  async run(context) {
    context.requireGift();
    const { status, body, record } = await approvedGift(context);
    const ids = [record.id];
    const { checks } = context;
    checks.status("HTTP status", 201, status, ids);
    const field = (name: string) => get(body, "data", name);
    checks.uuid("transaction_id", field("transaction_id"), ids);
    checks.uuid("external_id", field("external_id"), ids);
    for (const name of ["entry_mode", "card_number", "pin_mode", "pin_verification_result", "timestamp"]) {
      const value = field(name);
      checks.add(name, "a string", describe(value), typeof value === "string", ids);
    }
    checks.equal("transaction_type", "gift_balance_inquiry", field("transaction_type"), ids);
    checks.equal("response_status", "approved", field("response_status"), ids);
    checks.equal("response_code", "transaction_approved", field("response_code"), ids);
    checks.equal("response_message", "Approved", field("response_message"), ids);
    checks.money("balance", field("balance"), ids);
    for (const name of ["originator", "target"]) {
      const value = field(name);
      checks.add(
        name,
        "an object",
        describe(value),
        value !== null && typeof value === "object" && !Array.isArray(value),
        ids,
      );
    }
  },
};

const giftEcho: CaseDefinition = {
  id: "GBI-02",
  title: "The echoed fields equal the request",
  spec_sections: ["2.3", "2.4"],
  async run(context) {
    context.requireGift();
    const call = await approvedGift(context);
    if (!answered(context, call)) return;
    const sent = context.card();
    for (const name of ["entry_mode", "card_number", "pin_mode"] as const) {
      context.checks.equal(name, sent[name], get(call.body, "data", name), [call.record.id]);
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
    const field = (name: string) => get(call.body, "data", name);
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
    const message = field("response_message");
    context.checks.add(
      "response_message",
      "a human-readable message",
      describe(message),
      typeof message === "string" && message !== "",
      ids,
    );
    context.checks.uuid("transaction_id (a transaction is recorded)", field("transaction_id"), ids);
    if (context.profile.transactionLookup && is2xx(call.status)) {
      const found = await context.lookup(token.accessToken, call.requestId);
      context.checks.equal(
        "the declined transaction is findable by its Request Id",
        field("transaction_id"),
        get(found.body, "data", "transaction_id"),
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
    const first = await approvedGift(context);
    const second = await approvedGift(context);
    if (!answered(context, first) || !answered(context, second)) return;
    const ids = [first.record.id, second.record.id];
    for (const name of ["transaction_id", "external_id"]) {
      const a = get(first.body, "data", name);
      const b = get(second.body, "data", name);
      context.checks.add(
        `two different ${name}s`,
        "two different values",
        `${describe(a)} and ${describe(b)}`,
        typeof a === "string" && typeof b === "string" && a !== b,
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
    const first = await approvedGift(context, requestId);
    if (!answered(context, first)) return;
    const second = await approvedGift(context, requestId);
    const ids = [first.record.id, second.record.id];
    const firstId = get(first.body, "data", "transaction_id");
    const secondId = get(second.body, "data", "transaction_id");
    const errors = get(second.body, "errors");
    const errorCode = Array.isArray(errors) ? get(errors[0], "code") : undefined;
    context.checks.observe(
      "the second inquiry with the same X-Request-Id",
      "not shown by the specification (§8 requires a unique Request Id)",
      `HTTP ${second.status}${typeof errorCode === "string" ? ` ${errorCode}` : ""}${typeof secondId === "string" ? `, transaction ${secondId}` : ""}`,
      ids,
    );
    // What the specification does fix: a Request Id finds one transaction (§4.3.3), so a second, different
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
    const call = await approvedGift(context);
    if (!answered(context, call)) return;
    const found = await context.lookup(call.token.accessToken, call.requestId);
    context.checks.status("Lookup Transaction by Request Id", 200, found.status, [found.record.id]);
    context.checks.equal(
      "the transaction found",
      get(call.body, "data", "transaction_id"),
      get(found.body, "data", "transaction_id"),
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
    const call = await approvedGift(context);
    if (!answered(context, call)) return;
    const purses = await context.balance({ token: call.token.accessToken });
    const gift = get(call.body, "data", "balance");
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
