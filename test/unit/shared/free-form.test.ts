/**
 * The free-form request's shared rules: which headers the console refuses (with the message the server and the
 * editor both show), and the cURL reader that fills the editor from a pasted command.
 */
import { describe, expect, it } from "vitest";
import { parseCurlCommand, shellCommands } from "@/lib/shared/curl-command";
import { headerProblem, headerProblems } from "@/lib/shared/free-form";
import { exchangeToCurl } from "@/lib/client/code-export";
import type { ExchangeRecord } from "@/lib/shared/contracts";

const BASE = "http://127.0.0.1:3000/sandbox";
const BODY = '{"data":{"entry_mode":"keyed","card_number":"6006491000000001","pin_mode":"none"}}';

describe("free-form header rules", () => {
  it("refuses the console's own and hop-by-hop headers, in any case, naming them", () => {
    for (const name of [
      "Host",
      "AUTHORIZATION",
      "content-length",
      "Transfer-Encoding",
      "Connection",
      "Cookie",
      "Keep-Alive",
      "Proxy-Authorization",
      "TE",
      "Trailer",
      "Upgrade",
    ]) {
      const problem = headerProblem(name, "x");
      expect(problem, name).toMatchObject({ code: "header_not_allowed", name });
      expect(problem?.message).toContain(name);
    }
  });

  it("takes ordinary headers, and refuses malformed names, control characters, long values, repeats", () => {
    expect(headerProblem("X-Request-Id", "req-1")).toBeNull();
    expect(headerProblem("Accept", "application/json; q=0.9")).toBeNull();
    expect(headerProblem("Content-Type", "text/plain")).toBeNull();
    expect(headerProblem("Bad Name", "x")?.code).toBe("validation_failed");
    expect(headerProblem("", "x")?.code).toBe("validation_failed");
    expect(headerProblem("X-Split", "a\r\nInjected: 1")?.code).toBe("validation_failed");
    expect(headerProblem("X-Nul", "a\u0000")?.code).toBe("validation_failed");
    expect(headerProblem("X-Accent", "café")?.code).toBe("validation_failed");
    expect(headerProblem("X-Long", "x".repeat(2049))?.code).toBe("validation_failed");
    expect(headerProblem("x".repeat(129), "x")?.code).toBe("validation_failed");
    expect(headerProblems({ "X-A": "1", "x-a": "2" })).toHaveLength(1);
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, index) => [`X-${index}`, "x"]));
    expect(headerProblems(many).map((problem) => problem.name)).toEqual(["(headers)"]);
  });
});

describe("parseCurlCommand", () => {
  it("reads -X, -H, --data-raw and the path's operation, with line continuations and both quotes", () => {
    const parsed = parseCurlCommand(
      `curl -sS -i -X POST '${BASE}/transaction/v1/gift/balance-inquiry' \\\n` +
        `  -H 'Content-Type: application/json' \\\n` +
        `  -H "X-Request-Id: req-123" \\\n` +
        `  -H "Authorization: Bearer abc.def" \\\n` +
        `  --data-raw '${BODY}'`,
    );
    expect(parsed).toEqual({
      ok: true,
      operation: "gift_balance_inquiry",
      headers: [
        ["Content-Type", "application/json"],
        ["X-Request-Id", "req-123"],
      ],
      body: BODY,
      requestId: "req-123",
      notes: ["Authorization was left out: the console sends its own token."],
    });
  });

  it("reads -d and --data, --json, attached values and a POST implied by data", () => {
    const balance = parseCurlCommand(
      `curl ${BASE}/transaction/v1/balance-inquiry -d '{"a":1}' --data '{"b":2}'`,
    );
    expect(balance).toMatchObject({ ok: true, operation: "balance_inquiry", body: '{"a":1}&{"b":2}' });
    const json = parseCurlCommand(
      `curl -XPOST -H'X-Trace: 1' --json "{\\"data\\":{}}" ${BASE}/transaction/v1/balance-inquiry`,
    );
    expect(json).toMatchObject({
      ok: true,
      body: '{"data":{}}',
      headers: [
        ["X-Trace", "1"],
        ["Content-Type", "application/json"],
        ["Accept", "application/json"],
      ],
    });
    const ansi = parseCurlCommand(
      `curl ${BASE}/transaction/v1/balance-inquiry --data-raw $'{\\n"a": "it\\'s"}'`,
    );
    expect(ansi).toMatchObject({ ok: true, body: '{\n"a": "it\'s"}' });
  });

  it("takes the lookup's Request Id from the path, below any base path", () => {
    const parsed = parseCurlCommand(
      `curl "https://api.example.com/v2/transaction/v1/transactions/request-id/req%20x-1" -H 'Accept: application/json'`,
    );
    expect(parsed).toMatchObject({
      ok: true,
      operation: "lookup_transaction",
      requestId: "req x-1",
      body: null,
    });
  });

  it("keeps a single-quoted body with an escaped quote, and a double-quoted one with escapes", () => {
    const single = parseCurlCommand(`curl ${BASE}/transaction/v1/balance-inquiry -d '{"name":"O'\\''Neil"}'`);
    expect(single).toMatchObject({ ok: true, body: `{"name":"O'Neil"}` });
    const double = parseCurlCommand(`curl ${BASE}/transaction/v1/balance-inquiry -d "{\\"x\\": \\"\\$5\\"}"`);
    expect(double).toMatchObject({ ok: true, body: '{"x": "$5"}' });
  });

  it("reads the console's own Copy as cURL, whose token request comes first", () => {
    const exchange = {
      id: "1",
      operation: "gift_balance_inquiry",
      environment: "embedded",
      started_at: new Date(0).toISOString(),
      duration_ms: 1,
      request_id: "req-1",
      request: {
        method: "POST",
        url: `${BASE}/transaction/v1/gift/balance-inquiry`,
        headers: {
          "Content-Type": "application/json",
          Authorization: "Bearer [REDACTED]",
          "X-Request-Id": "req-1",
        },
        body: { data: { card_number: "600649******0001", entry_mode: "keyed" } },
      },
      response: { status: 201, headers: {}, body: {} },
      token_events: [],
    } satisfies ExchangeRecord;
    const copied = exchangeToCurl(exchange, {
      token: { url: `${BASE}/reporting/v1/auth/token` },
    });
    const parsed = parseCurlCommand(copied);
    expect(parsed).toMatchObject({ ok: true, operation: "gift_balance_inquiry", requestId: null });
    if (!parsed.ok) return;
    expect(parsed.headers).toEqual([["Content-Type", "application/json"]]);
    expect(parsed.notes.join(" ")).toMatch(/X-Request-Id was made by the shell/);
    expect(parsed.notes.join(" ")).toMatch(/body uses a shell variable/);
  });

  it("says clearly what it cannot read", () => {
    const message = (text: string) => {
      const parsed = parseCurlCommand(text);
      return parsed.ok ? null : parsed.message;
    };
    expect(message("wget http://x/transaction/v1/balance-inquiry")).toBe("This is not a curl command.");
    expect(message("")).toBe("This is not a curl command.");
    expect(message(`curl -X POST ${BASE}/reporting/v1/auth/token -d '{}'`)).toMatch(/token request/);
    expect(message(`curl https://example.com/other -d x`)).toMatch(/not the address of a card operation/);
    expect(message(`curl ${BASE}/transaction/v1/balance-inquiry`)).toMatch(
      /Balance Inquiry is a POST; .* GET/,
    );
    expect(message(`curl ${BASE}/transaction/v1/balance-inquiry -d '{"a`)).toMatch(/single quote/);
    expect(message(`curl ${BASE}/transaction/v1/balance-inquiry -d "x`)).toMatch(/double quote/);
    expect(message(`curl ${BASE}/transaction/v1/balance-inquiry -d @body.json`)).toMatch(/reads a file/);
    expect(message(`curl ${BASE}/transaction/v1/balance-inquiry -u a:b -d x`)).toMatch(/user and password/);
    expect(message(`curl ${BASE}/transaction/v1/balance-inquiry --frobnicate -d x`)).toMatch(/--frobnicate/);
    expect(message(`curl ${BASE}/transaction/v1/balance-inquiry -H 'NoColon' -d x`)).toMatch(/Name: value/);
    expect(message(`curl -X POST`)).toMatch(/needs a value|no address/);
    expect(message(`curl -d x`)).toBe("The command has no address.");
  });

  it("splits commands where a shell would, and skips comments", () => {
    expect(shellCommands("# note\necho a; curl b | sed c && d")).toEqual([
      ["echo", "a"],
      ["curl", "b"],
      ["sed", "c"],
      ["d"],
    ]);
  });
});
