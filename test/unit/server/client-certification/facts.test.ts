/**
 * What is kept of a raw call (docs/design.md §11): the secret is found wherever and however it is sent (a header, the
 * query, the path, the body; glued to other text; raw, percent-encoded, base64 of either alphabet, hex, `\u`
 * escaped, inside a Basic credential), the kept record holds neither it nor a token, and what is kept of one call
 * is bounded.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import type { SandboxCall } from "@/lib/sandbox";
import {
  MAX_KEPT_BODY,
  MAX_KEPT_HEADERS,
  MAX_KEPT_HEADER_CHARS,
  keepCall,
} from "@/lib/server/client-certification/facts";
import { secretForms } from "@/lib/server/client-certification/secret-forms";

const secret = randomBytes(32).toString("base64url");
const forms = secretForms(secret);
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
    const kept = keepCall(call, forms, "tokens");
    expect(kept.facts.secret_in).toEqual([place]);
    const record = JSON.stringify(kept.record);
    expect(record).not.toContain(secret);
    expect(record).not.toContain(TOKEN);
    expect(record).toContain("600649******0001");
    expect(record).not.toContain("6006491000000001");
  });

  test("a well-formed call with no secret: nothing to report", () => {
    const kept = keepCall(inquiry({}), forms, "tokens");
    expect(kept.facts).toMatchObject({ secret_in: [], malformed: [], card: "600649******0001" });
  });

  const bytes = Buffer.from(secret);
  const base64 = bytes.toString("base64");
  const unicodeAll = [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
  const unicodeSome = [...secret]
    .map((c, at) => (at % 3 === 0 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0").toUpperCase()}` : c))
    .join("");
  const percentAll = [...secret].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join("");
  const percentSome = [...secret].map((c, at) => (at % 2 ? `%${c.charCodeAt(0).toString(16)}` : c)).join("");
  const hexMixed = [...bytes.toString("hex")].map((c, at) => (at % 2 ? c.toUpperCase() : c)).join("");
  const lookup = "http://sandbox.test/sandbox/transaction/v1/transactions/request-id/";
  const FORMS: [string, SandboxCall, string][] = [
    ["base64 (standard, padded)", inquiry({ "x-key": base64 }), "header x-key"],
    ["base64 (url-safe, unpadded)", inquiry({ "x-key": bytes.toString("base64url") }), "header x-key"],
    [
      "base64 inside other base64",
      inquiry({ "x-key": Buffer.from(`a:${secret}:b`).toString("base64") }),
      "header x-key",
    ],
    [
      "base64 in a Basic credential",
      inquiry({ authorization: `Basic ${Buffer.from(`cert-1:${secret}`).toString("base64url")}` }),
      "header authorization",
    ],
    ["hex (lower case)", inquiry({ "x-key": bytes.toString("hex") }), "header x-key"],
    ["hex (upper and mixed case)", inquiry({ "x-key": hexMixed }), "header x-key"],
    [
      "JSON \\u escapes (all)",
      { ...inquiry({}), request: { ...inquiry({}).request, body: `{"k":"${unicodeAll}"}` } },
      "body",
    ],
    ["JSON \\u escapes (some)", inquiry({ "x-key": unicodeSome }), "header x-key"],
    ["percent-encoded (all) in the query", inquiry({}, `${lookup}x?k=${percentAll}`), "query"],
    ["percent-encoded (some) in the path", inquiry({}, `${lookup}${percentSome}`), "path"],
    ["raw in a lookup path", inquiry({}, `${lookup}${secret}`), "path"],
  ];

  test.each(FORMS)("finds the secret as %s, and keeps no readable form of it", (_, call, place) => {
    const kept = keepCall(call, forms, null);
    expect(kept.facts.secret_in).toEqual([place]);
    const record = JSON.stringify(kept.record);
    for (const form of [
      secret,
      base64.replace(/=+$/, ""),
      bytes.toString("base64url"),
      bytes.toString("hex"),
    ])
      expect(record).not.toContain(form);
    expect(record.toLowerCase()).not.toContain(bytes.toString("hex"));
    expect(record).not.toContain(unicodeAll);
    expect(record).not.toContain(percentAll);
    expect(record).toContain("[REDACTED]");
  });

  test("text that merely shares the secret's alphabet is not the secret", () => {
    const other = randomBytes(32).toString("base64url");
    const kept = keepCall(
      inquiry({ "x-key": `${other}${other}`, "x-hex": Buffer.from(other).toString("hex") }),
      forms,
      null,
    );
    expect(kept.facts.secret_in).toEqual([]);
  });

  test("a kept call is bounded: headers, their size and each body, and says what it cut", () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_KEPT_HEADERS + 20 }, (_, at) => [`x-h${at}`, "v".repeat(4000)]),
    );
    const base = inquiry(many);
    const call: SandboxCall = {
      ...base,
      request: { ...base.request, body: `{"pad":"${"a".repeat(60_000)}${secret}"}` },
      response: { ...base.response, body: "b".repeat(60_000) },
    };
    const kept = keepCall(call, forms, null);
    expect(kept.facts.secret_in).toEqual(["body"]);
    const { record } = kept;
    expect(Object.keys(record.request.headers).length).toBeLessThanOrEqual(MAX_KEPT_HEADERS);
    for (const value of Object.values(record.request.headers))
      expect(value.length).toBeLessThanOrEqual(MAX_KEPT_HEADER_CHARS);
    expect(String(record.request.body).length).toBeLessThanOrEqual(MAX_KEPT_BODY);
    expect(String(record.response.body).length).toBeLessThanOrEqual(MAX_KEPT_BODY);
    expect(record.truncated).toEqual(["request headers", "request body", "response body"]);
    expect(JSON.stringify(record).length).toBeLessThan(
      MAX_KEPT_HEADERS * MAX_KEPT_HEADER_CHARS + 3 * MAX_KEPT_BODY,
    );
  });

  test("the search is linear: 64 KiB of secret-alphabet text takes milliseconds", () => {
    const text = randomBytes(48 * 1024).toString("base64url");
    const base = inquiry({ "x-key": text.slice(0, 8000) });
    const call: SandboxCall = { ...base, request: { ...base.request, body: text } };
    const started = performance.now();
    for (let run = 0; run < 20; run += 1) keepCall(call, forms, null);
    expect((performance.now() - started) / 20).toBeLessThan(25);
  });
});

describe("keepCall keeps the request as the application sent it", () => {
  const withBody = (body: string, headers: Record<string, string> = {}): SandboxCall => {
    const call = inquiry(headers);
    return { ...call, request: { ...call.request, body } };
  };

  test("the body's own spacing and key order, the card masked in place", () => {
    const sent = `{ "data":{"pin_mode" :"none",\n\t"card_number":  "6006491000000001", "entry_mode":"keyed", "originator":{"location_id":"s"}} }\n`;
    const kept = keepCall(withBody(sent), forms, "tokens");
    expect(kept.record.request.body).toBe(sent.replace("6006491000000001", "600649******0001"));
    expect(kept.record.request.body_is_text).toBe(true);
    expect(kept.facts.card).toBe("600649******0001");
  });

  test("secret-named fields are redacted in place, in JSON and in a form", () => {
    const json = `{"password" :  "hunter22", "token":"opaque-123", "note": "kept" , "secret": ""}`;
    expect(keepCall(withBody(json), forms, "tokens").record.request.body).toBe(
      `{"password" :  "[REDACTED]", "token":"[REDACTED]", "note": "kept" , "secret": ""}`,
    );
    const form = `grant_type=client_credentials&client_secret=${secret}&password=hunter22&x=1`;
    expect(keepCall(withBody(form), forms, "tokens").record.request.body).toBe(
      "grant_type=client_credentials&client_secret=[REDACTED]&password=[REDACTED]&x=1",
    );
  });

  test("a secret field the in-place patterns cannot reach: the body is shown re-serialised, without it", () => {
    const sent = `{"password": {"value": "hunter22"}, "\\u0074oken": "opaque-123"}`;
    const body = String(keepCall(withBody(sent), forms, "tokens").record.request.body);
    expect(body).not.toContain("hunter22");
    expect(body).not.toContain("opaque-123");
  });

  test("headers a proxy, the console's server or its proxy.ts add are not the application's", () => {
    const added = {
      "x-forwarded-for": "203.0.113.7",
      "x-forwarded-proto": "https",
      forwarded: "for=203.0.113.7",
      "x-real-ip": "203.0.113.7",
      via: "1.1 proxy",
      "x-csc-peer-address": "127.0.0.1",
      "x-nonce": "abc",
      "content-security-policy": "default-src 'self'",
      "cross-origin-opener-policy": "same-origin",
      "strict-transport-security": "max-age=1",
    };
    const kept = keepCall(withBody(BODY, { ...added, "x-application": "mine" }), forms, "tokens");
    expect(Object.keys(kept.record.request.headers).sort()).toEqual([
      "authorization",
      "content-type",
      "x-application",
    ]);
  });
});
