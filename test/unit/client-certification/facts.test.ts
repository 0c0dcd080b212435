/**
 * What is kept of a raw call (DESIGN.md §11): the secret is found wherever it is sent (a header, the query, the
 * body, glued to other text, inside a Basic credential) though only its SHA-256 is stored, and the kept record
 * holds neither it nor a token.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import type { SandboxCall } from "@/lib/sandbox";
import { keepCall, sha256Hex } from "@/lib/server/client-certification/facts";

const secret = randomBytes(32).toString("base64url");
const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjZXJ0LTEifQ.c2lnbmF0dXJl";
const BODY = JSON.stringify({
  data: {
    entry_mode: "keyed",
    card_number: "6006491000000001",
    pin_mode: "none",
    originator: { location_id: "s" },
  },
});

function inquiry(
  headers: Record<string, string>,
  url = "http://sandbox.test/sandbox/transaction/v1/balance-inquiry",
): SandboxCall {
  return {
    clientId: "cert-1",
    operation: "balance_inquiry",
    startedAtMs: 0,
    durationMs: 5,
    request: {
      method: "POST",
      url,
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}`, ...headers },
      body: BODY,
    },
    response: { status: 200, headers: {}, body: "{}" },
    tokenIssuedAtMs: 0,
    behaviour: null,
  };
}

describe("keepCall", () => {
  test.each([
    ["a header of its own", inquiry({ "x-client-secret": secret }), "header x-client-secret"],
    ["glued to other text", inquiry({ "x-api-key": `key${secret}` }), "header x-api-key"],
    [
      "a Basic credential",
      inquiry({ "x-auth": `Basic ${Buffer.from(`cert-1:${secret}`).toString("base64")}` }),
      "header x-auth",
    ],
    [
      "the query",
      inquiry({}, `http://sandbox.test/sandbox/transaction/v1/balance-inquiry?secret=${secret}`),
      "query",
    ],
  ])("finds the secret in %s, and keeps a record without it", (_, call, place) => {
    const kept = keepCall(call, sha256Hex(secret), "tokens");
    expect(kept.facts.secret_in).toEqual([place]);
    const record = JSON.stringify(kept.record);
    expect(record).not.toContain(secret);
    expect(record).not.toContain(TOKEN);
    expect(record).toContain("600649******0001");
    expect(record).not.toContain("6006491000000001");
  });

  test("a well-formed call with no secret: nothing to report", () => {
    const kept = keepCall(inquiry({}), sha256Hex(secret), "tokens");
    expect(kept.facts).toMatchObject({ secret_in: [], malformed: [], card: "600649******0001" });
  });
});
