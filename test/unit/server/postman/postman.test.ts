/**
 * The console's Postman collection and the sandbox's OpenAPI document, run by Postman's own tools (newman, and
 * openapi-to-postmanv2 as Postman imports by URL) against the standalone sandbox, and against an upstream that
 * breaks a promise of the specification.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/sandbox";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";
import { sandboxOpenApiDocument } from "@/lib/sandbox/openapi";
import { postmanCollection } from "@/lib/server/postman/collection";
import {
  convertOpenApi,
  failuresOf,
  runNewman,
  startRewritingUpstream,
  type BrokenUpstream,
} from "../../../support/newman";

const CREDENTIALS = { client_id: "demo-client", client_secret: "demo-secret" };

let sandbox: SandboxServer;
beforeAll(async () => {
  // Mounted under /sandbox, as in the console, so the documents' addresses are the console's.
  sandbox = await startSandboxServer({ port: 0, sandbox: createSandbox({ basePath: "/sandbox" }) });
});
afterAll(() => sandbox.close());

const collectionFor = (origin: string) =>
  postmanCollection({ environment: "embedded", authUrl: `${origin}/sandbox`, baseUrl: `${origin}/sandbox` });

describe("the console's Postman collection in newman", () => {
  it("passes every test against the sandbox, with the credentials given as --env-var", async () => {
    const summary = await runNewman(collectionFor(sandbox.url), CREDENTIALS);
    expect(failuresOf(summary)).toEqual([]);
    expect(summary.run.stats.requests.total).toBe(4);
    expect(summary.run.stats.assertions.total).toBeGreaterThanOrEqual(20);
    // One token request by the token item; the others reuse it (the pre-request script caches it).
    expect(summary.run.executions.map((execution) => execution.response.code)).toEqual([200, 201, 200, 200]);
  });

  it("leaves the credentials empty, and fails with no credentials given", async () => {
    const collection = collectionFor(sandbox.url) as { variable: { key: string; value: string }[] };
    const values = Object.fromEntries(collection.variable.map(({ key, value }) => [key, value]));
    expect([values.client_id, values.client_secret]).toEqual(["", ""]);
    const summary = await runNewman(collection);
    expect(failuresOf(summary).length).toBeGreaterThan(0);
  });

  describe("against an upstream that breaks a promise", () => {
    let broken: BrokenUpstream;
    beforeAll(async () => {
      broken = await startRewritingUpstream(sandbox.url, (path, body) => {
        const data = (body as { data?: { balances?: Record<string, string> } }).data;
        if (path.endsWith("/transaction/v1/balance-inquiry") && data?.balances) {
          delete data.balances.punch_rewards;
          data.balances.gift = "25";
        }
        return body;
      });
    });
    afterAll(() => broken.close());

    it("fails the Balance Inquiry's tests: seven purses, a balance without two decimals", async () => {
      const summary = await runNewman(collectionFor(broken.url), CREDENTIALS);
      const failures = failuresOf(summary);
      expect(failures.some((line) => line.includes("exactly the eight purses"))).toBe(true);
      expect(failures.some((line) => line.includes("equals the Gift purse"))).toBe(true);
      expect(failures.every((line) => line.startsWith("Balance Inquiry"))).toBe(true);
    });

    it("checks another upstream when authUrl and baseUrl are given on the command line", async () => {
      const green = await runNewman(collectionFor(sandbox.url), CREDENTIALS);
      expect(failuresOf(green)).toEqual([]);
      const pointed = await runNewman(collectionFor(sandbox.url), {
        ...CREDENTIALS,
        authUrl: `${broken.url}/sandbox`,
        baseUrl: `${broken.url}/sandbox`,
      });
      expect(failuresOf(pointed).some((line) => line.includes("exactly the eight purses"))).toBe(true);
    });
  });
});

describe("the sandbox's OpenAPI document imported as Postman imports it", () => {
  /** What Postman does after the user enters credentials: the OAuth 2.0 client-credentials grant (Basic auth). */
  async function fetchToken(tokenUrl: string): Promise<string> {
    const basic = Buffer.from(`${CREDENTIALS.client_id}:${CREDENTIALS.client_secret}`).toString("base64");
    const response = await fetch(tokenUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${basic}` },
      body: "grant_type=client_credentials&scope=read%3Atransactions",
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string; token_type: string };
    expect(body.token_type).toBe("Bearer");
    return body.access_token;
  }

  it.each(["Schema", "Example"] as const)(
    "has every request work on the first Send once a token is fetched (%s resolution)",
    async (resolution) => {
      const document = sandboxOpenApiDocument({ sandboxUrl: `${sandbox.url}/sandbox` });
      const collection = (await convertOpenApi(document, resolution)) as {
        auth: { type: string; oauth2: { key: string; value: string }[] };
      };
      expect(collection.auth.type).toBe("oauth2");
      const tokenUrl = collection.auth.oauth2.find(({ key }) => key === "accessTokenUrl")?.value;
      expect(tokenUrl).toBe(`${sandbox.url}/sandbox/reporting/v1/auth/token`);
      collection.auth.oauth2.push({ key: "accessToken", value: await fetchToken(tokenUrl!) });
      const summary = await runNewman(collection);
      const answered = summary.run.executions.map((execution) => ({
        request: execution.item.name,
        status: execution.response.code,
      }));
      expect(answered).toHaveLength(4);
      for (const { request, status } of answered)
        expect([request, status >= 200 && status < 300]).toEqual([request, true]);
    },
  );
});
