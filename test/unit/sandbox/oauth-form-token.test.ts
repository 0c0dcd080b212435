/** The sandbox's token endpoint as OAuth 2.0 clients call it (form body or Basic auth), and the example lookup. */
import { describe, expect, it } from "vitest";
import { createSandbox } from "@/lib/sandbox";
import { EXAMPLE_REQUEST_ID } from "@/lib/sandbox/fixtures";

const sandbox = createSandbox();
const tokenUrl = "http://sandbox.local/reporting/v1/auth/token";
const form = (body: string, headers: Record<string, string> = {}) =>
  sandbox.handle(
    new Request(tokenUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body,
    }),
  );

describe("the OAuth 2.0 form of the token request", () => {
  it("answers credentials in the body with access_token at the top", async () => {
    const response = await form(
      "grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret",
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 7200 });
    expect(body.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it("answers credentials in Basic auth, and refuses wrong ones or another grant", async () => {
    const basic = (secret: string) => `Basic ${Buffer.from(`demo-client:${secret}`).toString("base64")}`;
    expect(
      (await form("grant_type=client_credentials", { Authorization: basic("demo-secret") })).status,
    ).toBe(200);
    const wrong = await form("grant_type=client_credentials", { Authorization: basic("nope") });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_client" });
    const grant = await form("grant_type=password&client_id=demo-client&client_secret=demo-secret");
    expect(await grant.json()).toMatchObject({ error: "unsupported_grant_type" });
  });

  it("finds the documents' example Request Id for a demo client", async () => {
    const token = await form("grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret");
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    const lookup = await sandbox.handle(
      new Request(`http://sandbox.local/transaction/v1/transactions/request-id/${EXAMPLE_REQUEST_ID}`, {
        headers: { Authorization: `Bearer ${accessToken}` },
      }),
    );
    expect(lookup.status).toBe(200);
    expect(await lookup.json()).toMatchObject({
      data: { card_number: "6006491000000001", response_status: "approved", balance: "25.00" },
      meta: { request_id: EXAMPLE_REQUEST_ID },
    });
  });
});
