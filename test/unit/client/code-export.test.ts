import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { exchangeToCurl, exchangeToFetch, matchesMask, shellQuote } from "@/lib/client/code-export";
import { FULL_CARD, MASKED_CARD, giftExchange, tokenExchange } from "./fixtures";

/** Runs a cURL snippet in bash with `curl` replaced by a function printing its arguments, one per line. */
function curlArguments(snippet: string, env: Record<string, string> = {}): string[] {
  const output = execFileSync(
    "bash",
    ["--norc", "--noprofile", "-c", `curl() { printf '%s\\0' "$@"; }\n${snippet}`],
    {
      env: { PATH: process.env.PATH ?? "", ...env } as unknown as NodeJS.ProcessEnv,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return output.split("\0").slice(0, -1);
}

interface CapturedFetch {
  url: string;
  init: { method: string; headers: Record<string, string>; body?: string };
}

/** Evaluates a fetch snippet with a stub `fetch` and returns what it was called with. */
async function runFetchSnippet(snippet: string): Promise<CapturedFetch> {
  let captured: CapturedFetch | undefined;
  const fakeFetch = async (url: string, init: CapturedFetch["init"]) => {
    captured = { url, init };
    return { status: 201, text: async () => "{}" };
  };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<void>;
  await new AsyncFunction("fetch", "console", snippet)(fakeFetch, { log: () => {} });
  if (!captured) throw new Error("fetch was not called");
  return captured;
}

describe("copy as cURL", () => {
  it("replays method, URL, headers and body, with the token as a shell variable", () => {
    const args = curlArguments(exchangeToCurl(giftExchange()), { ACCESS_TOKEN: "tok-123" });
    expect(args.slice(0, 3)).toEqual([
      "-X",
      "POST",
      "http://localhost:3000/sandbox/transaction/v1/gift/balance-inquiry",
    ]);
    expect(args).toContain("Authorization: Bearer tok-123");
    expect(args).toContain("X-Request-Id: 6b4b7b38-1d47-4a0e-9f1e-1d0f3e0c6a11");
    expect(args).toContain("Content-Type: application/json");
    const body = JSON.parse(args[args.indexOf("--data-raw") + 1]!) as { data: { card_number: string } };
    expect(body.data.card_number).toBe(MASKED_CARD);
  });

  it("writes $ACCESS_TOKEN literally, never a token, and masks the card by default", () => {
    const snippet = exchangeToCurl(giftExchange());
    expect(snippet).toContain('-H "Authorization: Bearer $ACCESS_TOKEN"');
    expect(snippet).not.toContain("[redacted]");
    expect(snippet).not.toContain(FULL_CARD);
  });

  it("includes the full card number only on opt-in, and only when it matches the recorded mask", () => {
    expect(exchangeToCurl(giftExchange(), { fullCardNumber: FULL_CARD })).toContain(FULL_CARD);
    const other = exchangeToCurl(giftExchange(), { fullCardNumber: "6006491000000019" });
    expect(other).not.toContain("6006491000000019");
    expect(other).toContain(MASKED_CARD);
  });

  it("quotes values so that the shell expands nothing else", () => {
    const exchange = giftExchange();
    exchange.request.headers["X-Note"] = `it's $(whoami) \`id\` "quoted"`;
    const args = curlArguments(exchangeToCurl(exchange));
    expect(args).toContain(`X-Note: it's $(whoami) \`id\` "quoted"`);
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
  });

  it("puts $CLIENT_SECRET in place of the redacted secret of a token request", () => {
    const snippet = exchangeToCurl(tokenExchange());
    expect(snippet).not.toContain("[redacted]");
    expect(snippet).not.toMatch(/Authorization/i);
    const args = curlArguments(snippet, { CLIENT_SECRET: "from-env" });
    const body = JSON.parse(args[args.indexOf("--data-raw") + 1]!) as Record<string, string>;
    expect(body).toEqual({
      client_id: "demo-client",
      client_secret: "from-env",
      grant_type: "client_credentials",
    });
  });
});

describe("copy as fetch", () => {
  it("is valid JavaScript that calls fetch with the recorded request and $ACCESS_TOKEN", async () => {
    const { url, init } = await runFetchSnippet(exchangeToFetch(giftExchange()));
    expect(url).toBe("http://localhost:3000/sandbox/transaction/v1/gift/balance-inquiry");
    expect(init.method).toBe("POST");
    expect(init.headers.Authorization).toBe("Bearer $ACCESS_TOKEN");
    expect(init.headers["X-Request-Id"]).toBe("6b4b7b38-1d47-4a0e-9f1e-1d0f3e0c6a11");
    const body = JSON.parse(init.body ?? "") as { data: { card_number: string; originator: object } };
    expect(body.data.card_number).toBe(MASKED_CARD);
    expect(body.data.originator).toEqual({ location_id: "store-1" });
  });

  it("includes the full card number only on opt-in", async () => {
    expect(exchangeToFetch(giftExchange())).not.toContain(FULL_CARD);
    const { init } = await runFetchSnippet(exchangeToFetch(giftExchange(), { fullCardNumber: FULL_CARD }));
    expect(JSON.parse(init.body ?? "")).toMatchObject({ data: { card_number: FULL_CARD } });
  });

  it("uses $CLIENT_SECRET for a token request", async () => {
    const { init } = await runFetchSnippet(exchangeToFetch(tokenExchange()));
    expect(JSON.parse(init.body ?? "")).toMatchObject({ client_secret: "$CLIENT_SECRET" });
  });
});

describe("matchesMask", () => {
  it("matches only the number the mask was made from", () => {
    expect(matchesMask(MASKED_CARD, FULL_CARD)).toBe(true);
    expect(matchesMask(MASKED_CARD, "6006491000000019")).toBe(false);
    expect(matchesMask(MASKED_CARD, "60064910000000011")).toBe(false);
    expect(matchesMask(MASKED_CARD, "not-a-card")).toBe(false);
  });
});
