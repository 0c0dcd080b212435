import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { exchangeToCurl, exchangeToFetch, matchesMask } from "@/lib/client/code-export";
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

const VARIABLES = ["ACCESS_TOKEN", "CARD_NUMBER", "CLIENT_ID", "CLIENT_SECRET"];

/** Evaluates a fetch module with a stub `fetch` and only the given variables set; returns the calls it made. */
async function runFetchSnippet(
  snippet: string,
  env: Record<string, string> = {},
): Promise<CapturedFetch & { calls: CapturedFetch[] }> {
  const calls: CapturedFetch[] = [];
  const fakeFetch = async (url: string, init: { method: string; headers: string[][]; body?: string }) => {
    calls.push({ url, init: { ...init, headers: Object.fromEntries(init.headers) } });
    const token = { data: { attributes: { access_token: "fetched-token" } } };
    return { ok: true, status: 201, text: async () => "{}", json: async () => token };
  };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<void>;
  const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
  for (const name of VARIABLES) delete process.env[name];
  Object.assign(process.env, env);
  try {
    await new AsyncFunction("fetch", "console", snippet)(fakeFetch, { log: () => {} });
  } finally {
    for (const name of VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  }
  const last = calls.at(-1);
  if (!last) throw new Error("fetch was not called");
  return { ...last, calls };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TOKEN_TARGET = { url: "http://localhost:3000/sandbox/reporting/v1/auth/token" };

describe("copy as cURL", () => {
  it("replays method, URL, headers and body, with the token from $ACCESS_TOKEN", () => {
    const args = curlArguments(exchangeToCurl(giftExchange(), { fullCardNumber: FULL_CARD }), {
      ACCESS_TOKEN: "tok-123",
    });
    expect(args.slice(0, 7)).toEqual([
      "-sS",
      "-i",
      "-g",
      "-X",
      "POST",
      "--url",
      "http://localhost:3000/sandbox/transaction/v1/gift/balance-inquiry",
    ]);
    expect(args).toContain("Authorization: Bearer tok-123");
    expect(args).toContain("Content-Type: application/json");
    const body = JSON.parse(args[args.indexOf("--data-raw") + 1]!) as { data: { card_number: string } };
    expect(body.data.card_number).toBe(FULL_CARD);
  });

  it("sends a fresh Request Id on every run, never the recorded one", () => {
    const run = () =>
      curlArguments(exchangeToCurl(giftExchange(), { fullCardNumber: FULL_CARD }), { ACCESS_TOKEN: "t" })
        .find((arg) => arg.startsWith("X-Request-Id: "))!
        .slice("X-Request-Id: ".length);
    const [first, second] = [run(), run()];
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(first).not.toBe(second);
    expect(first).not.toBe("6b4b7b38-1d47-4a0e-9f1e-1d0f3e0c6a11");
  });

  it("never sends the masked card: it reads $CARD_NUMBER when the typed number is not given", () => {
    const snippet = exchangeToCurl(giftExchange());
    expect(snippet).toContain("CARD_NUMBER");
    expect(snippet).toContain(MASKED_CARD); // named in the comment, so the user knows which card
    const args = curlArguments(snippet, { ACCESS_TOKEN: "t", CARD_NUMBER: FULL_CARD });
    const body = JSON.parse(args[args.indexOf("--data-raw") + 1]!) as { data: { card_number: string } };
    expect(body.data.card_number).toBe(FULL_CARD);
  });

  it("stops with a message when a variable is missing, before calling curl", () => {
    expect(() => curlArguments(exchangeToCurl(giftExchange(), { fullCardNumber: FULL_CARD }))).toThrow(
      /Set ACCESS_TOKEN/,
    );
  });

  it("includes the typed card number only when it matches the recorded mask", () => {
    expect(exchangeToCurl(giftExchange(), { fullCardNumber: FULL_CARD })).toContain(FULL_CARD);
    const other = exchangeToCurl(giftExchange(), { fullCardNumber: "6006491000000019" });
    expect(other).not.toContain("6006491000000019");
  });

  it("quotes values so that the shell expands nothing else", () => {
    const exchange = giftExchange();
    exchange.request.headers["X-Note"] = `it's $(whoami) \`id\` "quoted"`;
    const args = curlArguments(exchangeToCurl(exchange, { fullCardNumber: FULL_CARD }), {
      ACCESS_TOKEN: "t",
    });
    expect(args).toContain(`X-Note: it's $(whoami) \`id\` "quoted"`);
  });

  it("puts $CLIENT_ID and $CLIENT_SECRET in place of the client's id and redacted secret of a token request", () => {
    const snippet = exchangeToCurl(tokenExchange());
    expect(snippet).not.toContain("[redacted]");
    expect(snippet).not.toContain("demo-client");
    expect(snippet).not.toMatch(/Authorization/i);
    const args = curlArguments(snippet, { CLIENT_ID: "demo-client", CLIENT_SECRET: "from-env" });
    const body = JSON.parse(args[args.indexOf("--data-raw") + 1]!) as Record<string, string>;
    expect(body).toEqual({
      client_id: "demo-client",
      client_secret: "from-env",
      grant_type: "client_credentials",
    });
  });

  it("with the token request, asks for CLIENT_SECRET and no ACCESS_TOKEN", () => {
    const snippet = exchangeToCurl(giftExchange(), { fullCardNumber: FULL_CARD, token: TOKEN_TARGET });
    expect(snippet).toContain(TOKEN_TARGET.url);
    expect(snippet).toContain("CLIENT_SECRET");
    expect(snippet).toContain("CLIENT_ID");
    expect(snippet).not.toMatch(/Reads.*ACCESS_TOKEN/);
  });
});

describe("copy as fetch", () => {
  it("calls fetch with the recorded request, the token from process.env and a fresh Request Id", async () => {
    const snippet = exchangeToFetch(giftExchange(), { fullCardNumber: FULL_CARD });
    expect(snippet).not.toContain("$ACCESS_TOKEN");
    const { url, init } = await runFetchSnippet(snippet, { ACCESS_TOKEN: "tok-env" });
    expect(url).toBe("http://localhost:3000/sandbox/transaction/v1/gift/balance-inquiry");
    expect(init.method).toBe("POST");
    expect(init.headers.Authorization).toBe("Bearer tok-env");
    expect(init.headers["X-Request-Id"]).toMatch(UUID);
    expect(init.headers["X-Request-Id"]).not.toBe("6b4b7b38-1d47-4a0e-9f1e-1d0f3e0c6a11");
    const body = JSON.parse(init.body ?? "") as { data: { card_number: string; originator: object } };
    expect(body.data.card_number).toBe(FULL_CARD);
    expect(body.data.originator).toEqual({ location_id: "store-1" });
  });

  it("reads CARD_NUMBER from process.env when the typed number is not given, never the masked one", async () => {
    const snippet = exchangeToFetch(giftExchange());
    expect(snippet).not.toContain(FULL_CARD);
    const { init } = await runFetchSnippet(snippet, { ACCESS_TOKEN: "t", CARD_NUMBER: FULL_CARD });
    expect(JSON.parse(init.body ?? "")).toMatchObject({ data: { card_number: FULL_CARD } });
    await expect(runFetchSnippet(snippet, { ACCESS_TOKEN: "t" })).rejects.toThrow(/CARD_NUMBER/);
  });

  it("uses process.env.CLIENT_SECRET for a token request", async () => {
    const { init } = await runFetchSnippet(exchangeToFetch(tokenExchange()), {
      CLIENT_ID: "demo-client",
      CLIENT_SECRET: "s3",
    });
    expect(JSON.parse(init.body ?? "")).toMatchObject({ client_secret: "s3" });
  });

  it("with the token request, fetches the token first and uses it", async () => {
    const snippet = exchangeToFetch(giftExchange(), { fullCardNumber: FULL_CARD, token: TOKEN_TARGET });
    const { calls } = await runFetchSnippet(snippet, { CLIENT_ID: "demo-client", CLIENT_SECRET: "s3" });
    expect(calls.map((call) => call.url)).toEqual([
      TOKEN_TARGET.url,
      "http://localhost:3000/sandbox/transaction/v1/gift/balance-inquiry",
    ]);
    expect(JSON.parse(calls[0]!.init.body ?? "")).toMatchObject({
      client_id: "demo-client",
      client_secret: "s3",
    });
    expect(calls[1]!.init.headers.Authorization).toBe("Bearer fetched-token");
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

describe("code of a free-form run", () => {
  const freeForm = (body: string) =>
    giftExchange({ free_form: true, request: { ...giftExchange().request, body } });

  it("reads CARD_NUMBER for the masked card of a JSON body, or carries the typed number when unmasked", () => {
    const exchange = freeForm(`{"data":{"card_number":"${MASKED_CARD}","extra":"kept"}}`);
    const args = curlArguments(exchangeToCurl(exchange), { ACCESS_TOKEN: "t", CARD_NUMBER: FULL_CARD });
    expect(JSON.parse(args[args.indexOf("--data-raw") + 1]!)).toEqual({
      data: { card_number: FULL_CARD, extra: "kept" },
    });
    expect(exchangeToCurl(exchange)).not.toContain(MASKED_CARD + '"');
    expect(exchangeToCurl(exchange, { fullCardNumber: FULL_CARD })).toContain(
      `"card_number": "${FULL_CARD}"`,
    );
  });

  it("sends a body without a masked card exactly as it was sent", () => {
    const text = '{ "data" :{"card_number":"0000",  "n": 1.50 }}';
    const args = curlArguments(exchangeToCurl(freeForm(text)), { ACCESS_TOKEN: "t" });
    expect(args[args.indexOf("--data-raw") + 1]).toBe(text);
  });

  it("puts the card in place of a masked one in a body that is not JSON", () => {
    const args = curlArguments(exchangeToCurl(freeForm(`card ${MASKED_CARD} '$(id)'`)), {
      ACCESS_TOKEN: "t",
      CARD_NUMBER: FULL_CARD,
    });
    expect(args[args.indexOf("--data-raw") + 1]).toBe(`card ${FULL_CARD} '$(id)'`);
  });
});
