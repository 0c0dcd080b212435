/**
 * Small Card Services API client applications, written with plain fetch, for integration certification tests
 * (docs/design.md §11): one well-behaved client, and flaws that each break exactly one of the client's duties.
 */
import { randomUUID } from "node:crypto";

export interface ClientEnv {
  CARD_API_AUTH_URL: string;
  CARD_API_BASE_URL: string;
  CARD_API_CLIENT_ID: string;
  CARD_API_CLIENT_SECRET: string;
}

export type Flaw =
  | "token_per_call"
  | "new_id_after_401"
  | "one_request_id"
  | "new_inquiry_after_timeout"
  | "retry_declined"
  | "ignore_retry_after"
  | "secret_in_header"
  | "no_originator";

const CARD_BODY = (card: string, flaw?: Flaw) => ({
  data: {
    entry_mode: "keyed",
    card_number: card,
    pin_mode: "none",
    ...(flaw === "no_originator" ? {} : { originator: { location_id: "store-1" } }),
  },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How the client asks for a token: the specification's JSON, or the OAuth 2.0 form (credentials in it, or Basic). */
export type TokenEncoding = "json" | "form" | "basic";

export class CardApiClient {
  private token: string | undefined;
  /** The fixed X-Request-Id of the `one_request_id` flaw. */
  private readonly onlyId = randomUUID();

  constructor(
    private readonly env: ClientEnv,
    private readonly flaw?: Flaw,
    private readonly timeoutMs = 1500,
    private readonly tokenEncoding: TokenEncoding = "json",
  ) {}

  private tokenRequest(): RequestInit {
    const { CARD_API_CLIENT_ID: id, CARD_API_CLIENT_SECRET: secret } = this.env;
    if (this.tokenEncoding === "json") {
      return {
        headers: { "Content-Type": "application/json; charset=utf-8" },
        body: JSON.stringify({ client_id: id, client_secret: secret, grant_type: "client_credentials" }),
      };
    }
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    if (this.tokenEncoding === "form") {
      const body = new URLSearchParams({
        grant_type: "client_credentials",
        client_id: id,
        client_secret: secret,
      });
      return { headers: form, body: body.toString() };
    }
    const basic = Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64");
    return { headers: { ...form, Authorization: `Basic ${basic}` }, body: "grant_type=client_credentials" };
  }

  private async fetchToken(): Promise<string> {
    const response = await fetch(`${this.env.CARD_API_AUTH_URL}/reporting/v1/auth/token`, {
      method: "POST",
      ...this.tokenRequest(),
    });
    if (response.status !== 200) throw new Error(`token request answered ${response.status}`);
    const body = (await response.json()) as {
      access_token?: string;
      data?: { attributes: { access_token: string } };
    };
    return body.access_token ?? body.data!.attributes.access_token;
  }

  private async send(
    path: string,
    init: { method: string; body?: unknown; requestId?: string },
  ): Promise<Response> {
    if (!this.token || this.flaw === "token_per_call") this.token = await this.fetchToken();
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}` };
    if (init.body !== undefined) headers["Content-Type"] = "application/json";
    if (init.requestId) headers["X-Request-Id"] = init.requestId;
    if (this.flaw === "secret_in_header") headers["X-Client-Secret"] = this.env.CARD_API_CLIENT_SECRET;
    return fetch(`${this.env.CARD_API_BASE_URL}${path}`, {
      method: init.method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
  }

  /** One call with the token lifecycle: on a 401 renew once and retry; on a 429 wait Retry-After and retry. */
  private async call(
    path: string,
    init: { method: string; body?: unknown; requestId?: string },
  ): Promise<Response> {
    let response = await this.send(path, init);
    if (response.status === 401) {
      this.token = undefined;
      const retryInit =
        this.flaw === "new_id_after_401" && init.requestId ? { ...init, requestId: randomUUID() } : init;
      response = await this.send(path, retryInit);
    }
    if (response.status === 429) {
      const wait =
        this.flaw === "ignore_retry_after" ? 0 : Number(response.headers.get("retry-after") ?? "1") * 1000;
      await sleep(wait);
      response = await this.send(path, init);
    }
    return response;
  }

  async balance(card: string): Promise<number> {
    const response = await this.call("/transaction/v1/balance-inquiry", {
      method: "POST",
      body: CARD_BODY(card, this.flaw),
    });
    return response.status;
  }

  /** A Gift Balance Inquiry; when no answer comes in time, the transaction is looked up by its Request Id. */
  async gift(card: string, again = false): Promise<{ status: number | "timeout"; responseStatus?: string }> {
    const requestId = this.flaw === "one_request_id" ? this.onlyId : randomUUID();
    let response: Response;
    try {
      response = await this.call("/transaction/v1/gift/balance-inquiry", {
        method: "POST",
        body: CARD_BODY(card),
        requestId,
      });
    } catch (error) {
      if (!(error instanceof DOMException) || error.name !== "TimeoutError") throw error;
      if (this.flaw === "new_inquiry_after_timeout") return this.gift(card);
      const lookup = await this.call(
        `/transaction/v1/transactions/request-id/${encodeURIComponent(requestId)}`,
        {
          method: "GET",
        },
      );
      return { status: lookup.status === 200 ? 200 : "timeout" };
    }
    const body = (await response.json().catch(() => ({}))) as { data?: { response_status?: string } };
    const responseStatus = body.data?.response_status;
    if (responseStatus === "declined" && this.flaw === "retry_declined" && !again)
      return this.gift(card, true);
    return { status: response.status, ...(responseStatus ? { responseStatus } : {}) };
  }
}
