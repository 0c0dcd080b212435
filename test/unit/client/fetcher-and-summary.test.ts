import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiClientError, getJson, sendJson } from "@/lib/client/fetcher";
import { summarizeExchange } from "@/lib/client/exchange-summary";
import { explainExchange } from "@/lib/client/status-explanations";
import { giftExchange, tokenExchange } from "./fixtures";

afterEach(() => vi.unstubAllGlobals());

function answer(status: number, body: string, contentType = "application/json") {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(body, { status, headers: { "Content-Type": contentType } })),
  );
}

describe("fetcher", () => {
  it("returns the parsed JSON of a 2xx answer", async () => {
    answer(200, JSON.stringify({ environment: "embedded" }));
    await expect(getJson("/api/session")).resolves.toEqual({ environment: "embedded" });
  });

  it("throws ApiClientError with the code, status and message of the one error shape", async () => {
    answer(
      401,
      JSON.stringify({ error: { code: "no_credentials", message: "Connect first.", details: { x: 1 } } }),
    );
    const error = await getJson("/api/session").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({
      code: "no_credentials",
      status: 401,
      message: "Connect first.",
      details: { x: 1 },
    });
  });

  it("still throws a useful ApiClientError when the error body is not the error shape", async () => {
    answer(502, "<html>bad gateway</html>", "text/html");
    await expect(getJson("/api/token")).rejects.toMatchObject({ code: "http_502", status: 502 });
  });

  it("reports an unreachable console as network_error", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))),
    );
    await expect(getJson("/api/session")).rejects.toMatchObject({ code: "network_error", status: 0 });
  });

  it("sends mutations as JSON with the method and Content-Type the console requires", async () => {
    const fetchMock = vi.fn(async () => new Response("{}", { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    await sendJson("PUT")("/api/session/environment", { arg: { environment: "sandbox" } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/session/environment");
    expect(init.method).toBe("PUT");
    expect(new Headers(init.headers).get("content-type")).toBe("application/json");
    expect(init.body).toBe('{"environment":"sandbox"}');
  });
});

describe("exchange summary and status explanations", () => {
  it("reads approved, declined, balances and failures", () => {
    expect(summarizeExchange(giftExchange())).toEqual({ outcome: "approved", label: "approved · 25.00" });
    const declined = giftExchange();
    (declined.response.body as { data: Record<string, string> }).data.response_status = "declined";
    (declined.response.body as { data: Record<string, string> }).data.response_code = "card_inactive";
    expect(summarizeExchange(declined)).toEqual({ outcome: "declined", label: "declined · card_inactive" });
    const failed = giftExchange({
      response: { status: 500, headers: {}, body: { errors: [{ code: "internal_error" }] } },
    });
    expect(summarizeExchange(failed)).toEqual({ outcome: "failure", label: "HTTP 500 · internal_error" });
    expect(summarizeExchange(tokenExchange()).label).toBe("token issued · 3 scopes");
  });

  it("quotes API specification §7 for 400 (token), 401 and 403, and says what to do", () => {
    const refused = tokenExchange();
    refused.response = { status: 400, headers: {}, body: { errors: [] } };
    expect(explainExchange(refused)).toMatchObject({
      source: "API specification §7",
      meaning: "The token request is malformed: check client_id, client_secret and grant_type.",
      action: { href: "/connect" },
    });
    const unauthorized = giftExchange({ response: { status: 401, headers: {}, body: null } });
    expect(explainExchange(unauthorized)?.meaning).toBe(
      "The access token is invalid or expired. Request a new token.",
    );
    const forbidden = giftExchange({ response: { status: 403, headers: {}, body: null } });
    expect(explainExchange(forbidden)?.meaning).toBe(
      "The token is valid but lacks the scope required by the endpoint.",
    );
    const limited = giftExchange({ response: { status: 429, headers: { "Retry-After": "2" }, body: null } });
    expect(explainExchange(limited)?.next).toContain("Wait 2 s");
    expect(explainExchange(giftExchange())).toBeNull();
  });
});
