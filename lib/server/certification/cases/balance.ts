/** BI: Balance Inquiry (API specification §2.5, §4.4): read-only, every purse, no transaction. */
import "server-only";
import { randomUUID } from "node:crypto";
import { PURSES } from "@/lib/shared/purses";
import { dataField, describe, get } from "../checks";
import type { CaseContext } from "../context";
import type { CaseDefinition } from "./case-definition";

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

async function inquiry(context: CaseContext, requestId?: string) {
  const token = await context.sessionToken();
  return { token, ...(await context.balance({ token: token.accessToken, requestId })) };
}

const balanceFields: CaseDefinition = {
  id: "BI-01",
  title: "Balance Inquiry answers 200 with system_time and exactly the eight purses, two decimals each",
  spec_sections: ["2.5", "4.4", "4.5"],
  async run(context) {
    const { status, body, record } = await inquiry(context);
    const ids = [record.id];
    const { checks } = context;
    checks.status("HTTP status", 200, status, ids);
    checks.isString("card_number", dataField(body, "card_number"), ids);
    checks.matches("system_time", "ISO 8601 UTC", ISO_UTC, dataField(body, "system_time"), ids);
    const balances = dataField(body, "balances");
    const keys =
      balances && typeof balances === "object" && !Array.isArray(balances) ? Object.keys(balances) : [];
    const missing = PURSES.filter((purse) => !keys.includes(purse));
    const extra = keys.filter((key) => !(PURSES as readonly string[]).includes(key));
    checks.add(
      "the purses of balances",
      `exactly ${PURSES.join(", ")}`,
      missing.length === 0 && extra.length === 0
        ? "exactly those eight"
        : [
            missing.length ? `missing ${missing.join(", ")}` : "",
            extra.length ? `extra ${extra.join(", ")}` : "",
          ]
            .filter(Boolean)
            .join("; "),
      missing.length === 0 && extra.length === 0,
      ids,
    );
    for (const purse of PURSES) {
      if (keys.includes(purse)) checks.money(`balances.${purse}`, get(balances, purse), ids);
    }
  },
};

const noTransaction: CaseDefinition = {
  id: "BI-02",
  title: "Balance Inquiry has no transaction_id and no approved or declined result",
  spec_sections: ["4.4", "4.5"],
  async run(context) {
    const { body, record, status } = await inquiry(context);
    const ids = [record.id];
    context.checks.status("HTTP status", 200, status, ids);
    const data = get(body, "data");
    const present = ["transaction_id", "external_id", "response_status", "response_code"].filter(
      (name) => get(data, name) !== undefined,
    );
    context.checks.add(
      "transaction fields",
      "none of transaction_id, external_id, response_status, response_code",
      present.length ? `present: ${present.join(", ")}` : "none",
      present.length === 0,
      ids,
    );
    const text = JSON.stringify(data ?? null);
    context.checks.add(
      "approved or declined",
      "neither word in the answer",
      /\b(approved|declined)\b/i.test(text) ? "present" : "absent",
      !/\b(approved|declined)\b/i.test(text),
      ids,
    );
  },
};

const notFindable: CaseDefinition = {
  id: "BI-03",
  title: "A Balance Inquiry cannot be found by Request Id",
  spec_sections: ["4.4", "4.5"],
  async run(context) {
    context.requireLookup();
    const requestId = randomUUID();
    const call = await inquiry(context, requestId);
    context.checks.status("Balance Inquiry sent with an X-Request-Id", 200, call.status, [call.record.id]);
    const found = await context.lookup(call.token.accessToken, requestId);
    context.checks.add(
      "Lookup Transaction by that Request Id",
      "not found (no transaction was recorded)",
      `HTTP ${found.status}`,
      found.status === 404,
      [found.record.id],
    );
  },
};

const repeatable: CaseDefinition = {
  id: "BI-04",
  title: "Repeated Balance Inquiries agree",
  spec_sections: ["4.4"],
  async run(context) {
    const first = await inquiry(context);
    const second = await inquiry(context);
    const ids = [first.record.id, second.record.id];
    context.checks.add(
      "both answered",
      "HTTP 200 twice",
      `HTTP ${first.status}, HTTP ${second.status}`,
      first.status === 200 && second.status === 200,
      ids,
    );
    const a = dataField(first.body, "balances");
    const b = dataField(second.body, "balances");
    context.checks.add(
      "balances",
      "the same purses and amounts both times",
      JSON.stringify(a) === JSON.stringify(b) ? "the same" : `${describe(a)} then ${describe(b)}`,
      a !== undefined && JSON.stringify(a) === JSON.stringify(b),
      ids,
    );
  },
};

export const BALANCE_CASES = [balanceFields, noTransaction, notFindable, repeatable];
