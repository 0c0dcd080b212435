/**
 * A certification suite is worth something only if it catches a wrong API: each deliberately wrong
 * upstream (the sandbox, wrapped) must fail exactly its cases, with a message that says what differed.
 */
import { describe, expect, it } from "vitest";
import { certify, type Handler } from "./harness";

const GIFT = "/transaction/v1/gift/balance-inquiry";
const BALANCE = "/transaction/v1/balance-inquiry";
const TOKEN = "/reporting/v1/auth/token";

// Test doubles edit arbitrary upstream JSON: a loose type keeps each rewrite one line.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Rewrites the JSON body (and optionally the status) of answers to one path. */
function rewrite(
  path: string,
  change: (body: Record<string, Json>, status: number) => { body?: unknown; status?: number },
) {
  return (handler: Handler): Handler =>
    async (request) => {
      const response = await handler(request);
      if (new URL(request.url).pathname !== path || !response.ok) return response;
      const body = (await response.json()) as Record<string, Json>;
      const changed = change(body, response.status);
      return Response.json(changed.body ?? body, {
        status: changed.status ?? response.status,
        headers: response.headers,
      });
    };
}

async function failures(wrap: (handler: Handler) => Handler) {
  const { run } = await certify({ wrap });
  return Object.fromEntries(
    run.results
      .filter((result) => result.verdict === "fail")
      .map((result) => [result.id, result.reason ?? ""]),
  );
}

describe("deliberately wrong upstreams fail exactly their cases", () => {
  it("a purse missing from Balance Inquiry fails BI-01", async () => {
    const failed = await failures(
      rewrite(BALANCE, (body) => {
        delete body.data.balances.punch_rewards;
        return {};
      }),
    );
    expect(Object.keys(failed)).toEqual(["BI-01"]);
    expect(failed["BI-01"]).toContain("missing punch_rewards");
  });

  it("a gift balance with one decimal fails GBI-01", async () => {
    const failed = await failures(
      rewrite(GIFT, (body) => {
        body.data.balance = body.data.balance.replace(/0$/, "");
        return {};
      }),
    );
    expect(Object.keys(failed)).toEqual(["GBI-01"]);
    expect(failed["GBI-01"]).toMatch(
      /balance: expected a decimal string with two fraction digits, observed "25\.0"/,
    );
  });

  it("200 instead of 201 for Gift Balance Inquiry fails GBI-01 and GBI-03", async () => {
    const failed = await failures(rewrite(GIFT, () => ({ status: 200 })));
    expect(Object.keys(failed)).toEqual(["GBI-01", "GBI-03"]);
    expect(failed["GBI-01"]).toContain("HTTP status: expected HTTP 201, observed HTTP 200");
  });

  it("a reused Request Id accepted twice fails GBI-05", async () => {
    let counter = 0;
    // Refusals of a duplicate are turned into a fresh transaction: the upstream accepts the reuse.
    const acceptTwice =
      (handler: Handler): Handler =>
      async (request) => {
        const body = request.method === "POST" ? await request.text() : undefined;
        const copy = (id?: string) => {
          const headers = new Headers(request.headers);
          if (id) headers.set("x-request-id", id);
          return new Request(request.url, { method: request.method, headers, body });
        };
        const response = await handler(copy());
        if (response.status !== 409) return response;
        counter += 1;
        return handler(copy(`${request.headers.get("x-request-id")}-again-${counter}`));
      };
    const failed = await failures(acceptTwice);
    expect(Object.keys(failed)).toEqual(["GBI-05"]);
    expect(failed["GBI-05"]).toMatch(
      /a Request Id identifies one transaction: .*observed a second transaction/,
    );
  });

  it("a token response without meta.request_id fails TOK-01", async () => {
    const failed = await failures(
      rewrite(TOKEN, (body) => {
        delete body.meta.request_id;
        return {};
      }),
    );
    expect(Object.keys(failed)).toEqual(["TOK-01"]);
    expect(failed["TOK-01"]).toContain("meta.request_id: expected req-<number>-<suffix>, observed (absent)");
  });

  it("a 401 whose renewal does not help fails TOK-09", async () => {
    const rejected = new Set<string>();
    // The upstream remembers a Request Id it answered 401 and rejects its retry too.
    const burnsRequestIds =
      (handler: Handler): Handler =>
      async (request) => {
        const id = request.headers.get("x-request-id");
        const isGift = new URL(request.url).pathname === GIFT;
        if (isGift && id && rejected.has(id)) {
          return Response.json({ errors: [{ status: "401", code: "invalid_token" }] }, { status: 401 });
        }
        const response = await handler(request);
        if (isGift && id && response.status === 401) rejected.add(id);
        return response;
      };
    const failed = await failures(burnsRequestIds);
    expect(Object.keys(failed)).toEqual(["TOK-09"]);
    expect(failed["TOK-09"]).toContain(
      "the retry with the renewed token: expected HTTP 2xx (the inquiry is processed), observed HTTP 401",
    );
  });
});

describe("applicability", () => {
  it("in production Gift Balance Inquiry cases run only when allowed, and say why", async () => {
    const { run } = await certify({ environmentName: "production" });
    const gift = run.results.filter((result) => result.id.startsWith("GBI-"));
    expect(gift.every((result) => result.verdict === "not_applicable")).toBe(true);
    expect(gift[0]!.reason).toContain("allow_production_gift");
    expect(gift.flatMap((result) => result.exchange_ids)).toEqual([]);
    expect(run.exchanges.some((record) => record.operation === "gift_balance_inquiry")).toBe(false);
    // The renewal after a 401 is still proven, with Balance Inquiry; the Request Id part is said not shown.
    const renewal = run.results.find((result) => result.id === "TOK-09")!;
    expect(renewal.verdict).toBe("pass");
    expect(renewal.checks.find((check) => check.passed === null)?.observed).toContain("not shown");
    const allowed = await certify({
      environmentName: "production",
      allowProductionGift: true,
      caseIds: ["GBI-01"],
    });
    expect(allowed.run.results[0]!.verdict).toBe("pass");
  });

  it("without a client lacking the scope, AUTH-04 is not applicable and names the client that would make it so", async () => {
    const { run } = await certify({
      caseIds: ["AUTH-04", "AUTH-03"],
      profile: { withoutScope: undefined },
      maxExpiryWaitMs: 0,
    });
    const [expired, scope] = run.results;
    expect(scope!.verdict).toBe("not_applicable");
    expect(scope!.reason).toContain("demo-reports-only");
    expect(expired!.verdict).toBe("not_applicable");
    expect(expired!.reason).toMatch(/Needs waiting 62 s/);
  });

  it("without revocation, TOK-09 presents a tampered token and still proves the renewal", async () => {
    const { run } = await certify({ caseIds: ["TOK-09"], revoke: false });
    expect(run.results[0]!.verdict).toBe("pass");
    expect(run.results[0]!.checks[0]!.expected).toContain("tampered");
  });
});

describe("one token for sandbox and production (TOK-07)", () => {
  it("passes when the production instance accepts the sandbox's token", async () => {
    const { run } = await certify({ caseIds: ["TOK-07"], environmentName: "sandbox", sibling: "same" });
    expect(run.results[0]!.verdict).toBe("pass");
    expect(run.exchanges.map((record) => record.environment)).toEqual(["sandbox", "sandbox", "production"]);
  });

  it("fails when the production instance rejects it", async () => {
    const { run } = await certify({ caseIds: ["TOK-07"], environmentName: "sandbox", sibling: "other" });
    expect(run.results[0]!.verdict).toBe("fail");
    expect(run.results[0]!.reason).toContain("the token is accepted by production: expected not 401/403");
  });
});
