/**
 * The Postman sandbox scripts of the console's collection, as source lines (Postman's `exec`). They run inside
 * Postman or newman, not here: plain ES2017 against the `pm` API, no imports. Each test asserts a promise of the
 * specification, so a run against another upstream checks that upstream.
 */
import { FRESH_REQUEST_ID, TOKEN_PRE_REQUEST } from "@/lib/shared/postman-scripts";
import { PURSES } from "@/lib/shared/purses";

export { FRESH_REQUEST_ID, TOKEN_PRE_REQUEST };

/** Shared helpers the tests below start with. */
const HELPERS = String.raw`
const twoDecimals = /^-?\d+\.\d{2}$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const body = (function () { try { return pm.response.json(); } catch (e) { return undefined; } })();
const data = body && body.data;
pm.test("the body is JSON with a data object", function () {
  pm.expect(data, "data").to.be.an("object");
});
`;

export const TOKEN_TESTS = String.raw`${HELPERS}
pm.test("200 OK", function () { pm.response.to.have.status(200); });
pm.test("data.type is oauth-token", function () { pm.expect(data.type).to.equal("oauth-token"); });
pm.test("access_token is a JWT, token_type Bearer", function () {
  pm.expect(data.attributes.access_token).to.match(/^[\w-]+\.[\w-]+\.[\w-]*$/);
  pm.expect(data.attributes.token_type).to.equal("Bearer");
});
pm.test("expires_in is a positive integer, scope a space-separated string", function () {
  pm.expect(Number.isInteger(data.attributes.expires_in) && data.attributes.expires_in > 0).to.equal(true);
  pm.expect(data.attributes.scope).to.be.a("string").and.not.equal("");
});
pm.test("meta: timestamp with milliseconds, request_id req-<number>-<suffix>, semantic version", function () {
  pm.expect(body.meta.timestamp).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  pm.expect(body.meta.request_id).to.match(/^req-\d+-\S+$/);
  pm.expect(body.meta.version).to.match(/^\d+\.\d+\.\d+/);
  pm.expect(body.jsonapi.version).to.be.a("string").and.not.equal("");
});
if (data && data.attributes && data.attributes.access_token) {
  pm.collectionVariables.set("accessToken", data.attributes.access_token);
  pm.collectionVariables.set("accessTokenExpiresAt", String(Date.now() + data.attributes.expires_in * 1000));
  pm.collectionVariables.set("accessTokenFor", pm.variables.get("authUrl") + " " + pm.variables.get("client_id"));
}
`;

export const GIFT_TESTS = String.raw`${HELPERS}
const sent = JSON.parse(pm.request.body.raw).data;
pm.test("201 Created", function () { pm.response.to.have.status(201); });
pm.test("transaction_id and external_id are UUIDs", function () {
  pm.expect(data.transaction_id).to.match(uuid);
  pm.expect(data.external_id).to.match(uuid);
});
pm.test("entry_mode, card_number and pin_mode echo the request", function () {
  pm.expect(data.entry_mode).to.equal(sent.entry_mode);
  pm.expect(data.card_number).to.equal(sent.card_number);
  pm.expect(data.pin_mode).to.equal(sent.pin_mode);
});
pm.test("transaction_type gift_balance_inquiry, a result and a message", function () {
  pm.expect(data.transaction_type).to.equal("gift_balance_inquiry");
  pm.expect(data.response_status).to.be.oneOf(["approved", "declined"]);
  pm.expect(data.response_code).to.be.a("string").and.not.equal("");
  pm.expect(data.response_message).to.be.a("string").and.not.equal("");
  pm.expect(data.pin_verification_result).to.be.a("string");
});
pm.test("balance is a decimal string with two fraction digits", function () {
  pm.expect(data.balance).to.be.a("string").and.match(twoDecimals);
});
pm.test("originator, target and timestamp are present", function () {
  pm.expect(data.originator).to.be.an("object");
  pm.expect(data.target).to.be.an("object");
  pm.expect(data.timestamp).to.be.a("string");
});
if (data) {
  pm.collectionVariables.set("transactionId", data.transaction_id || "");
  pm.collectionVariables.set("giftBalance", data.response_status === "approved" ? data.balance : "");
}
`;

export const BALANCE_TESTS = String.raw`${HELPERS}
const purses = ${JSON.stringify(PURSES)};
pm.test("200 OK", function () { pm.response.to.have.status(200); });
pm.test("card_number is a string, system_time an ISO 8601 UTC timestamp", function () {
  pm.expect(data.card_number).to.be.a("string");
  pm.expect(data.system_time).to.match(isoUtc);
});
pm.test("exactly the eight purses, each a decimal string with two fraction digits", function () {
  pm.expect(Object.keys(data.balances).sort()).to.eql(purses.slice().sort());
  purses.forEach(function (purse) { pm.expect(data.balances[purse], purse).to.be.a("string").and.match(twoDecimals); });
});
pm.test("no transaction_id and no approved or declined result", function () {
  pm.expect(data).to.not.have.property("transaction_id");
  pm.expect(data).to.not.have.property("response_status");
});
pm.test("the Gift Balance Inquiry's balance equals the Gift purse", function () {
  const gift = pm.collectionVariables.get("giftBalance");
  if (gift) pm.expect(data.balances.gift).to.equal(gift);
});
`;

export const LOOKUP_TESTS = String.raw`${HELPERS}
pm.test("200 OK: the Gift Balance Inquiry is found by its Request Id", function () {
  pm.response.to.have.status(200);
});
pm.test("the transaction found is the one recorded", function () {
  pm.expect(data.transaction_id).to.equal(pm.collectionVariables.get("transactionId"));
});
`;

/**
 * Source text as Postman's `exec` lines, in a function of its own: the scripts of one run share a context, and
 * two top-level `const data` would collide.
 */
export const lines = (source: string): string[] => {
  const body = source.trim().replace(/^\(function \(\) \{\n([\s\S]*)\n\}\)\(\);$/, "$1");
  return ["(function () {", ...body.split("\n"), "})();"];
};
