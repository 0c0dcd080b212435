/**
 * Inquiry rules of docs/design.md §6: the environment the page showed (409 environment_changed, nothing sent
 * upstream), ASCII-only fields with a message that says so, a client that disconnects mid-body, and a session
 * that could not be read back is never sealed.
 */
import { beforeEach, describe, expect, it } from "vitest";
import * as balanceRoute from "@/app/api/inquiries/balance/route";
import * as giftRoute from "@/app/api/inquiries/gift-balance/route";
import * as lookupRoute from "@/app/api/transactions/request-id/[id]/route";
import { ApiError } from "@/lib/server/util/errors";
import { captureLogs } from "@/lib/server/util/logger";
import { getEmbeddedSandbox } from "@/lib/server/root/embedded-sandbox";
import { call, configure, demoSession, openSession, ORIGIN, readJson } from "../support";

const CARD = "6006491000000001";

beforeEach(() => {
  configure();
  getEmbeddedSandbox().reset();
});

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

describe("environment the page showed", () => {
  it("refuses both operations and the lookup with 409 when the session's environment differs", async () => {
    const jar = await demoSession();
    const body = { card_number: CARD, location_id: "L1", environment: "production" };
    for (const [handler, path] of [
      [giftRoute.POST, "/api/inquiries/gift-balance"],
      [balanceRoute.POST, "/api/inquiries/balance"],
    ] as const) {
      const response = await call(handler, "POST", path, { body }, jar);
      expect(response.status, path).toBe(409);
      const error = await readJson<ErrorBody>(response);
      expect(error.error.code).toBe("environment_changed");
      expect(error.error.details).toEqual({
        session_environment: "embedded",
        requested_environment: "production",
      });
    }
    const lookup = await call(
      lookupRoute.GET,
      "GET",
      "/api/transactions/request-id/abc?environment=sandbox",
      {},
      jar,
    );
    expect(lookup.status).toBe(409);
    // Nothing reached the upstream: no token request, no transaction.
    expect(getEmbeddedSandbox().stats()).toEqual({ tokenRequests: 0, transactions: 0 });
  });

  it("runs when the environment matches, and without one", async () => {
    const jar = await demoSession();
    const matching = await call(
      giftRoute.POST,
      "POST",
      "/api/inquiries/gift-balance",
      { body: { card_number: CARD, location_id: "L1", environment: "embedded" } },
      jar,
    );
    expect(matching.status).toBe(200);
    const without = await call(
      balanceRoute.POST,
      "POST",
      "/api/inquiries/balance",
      { body: { card_number: CARD, location_id: "L1" } },
      jar,
    );
    expect(without.status).toBe(200);
    const badName = await call(
      balanceRoute.POST,
      "POST",
      "/api/inquiries/balance",
      { body: { card_number: CARD, location_id: "L1", environment: "staging" } },
      jar,
    );
    expect(badName.status).toBe(400);
  });
});

describe("ASCII-only fields", () => {
  it("says that the console accepts ASCII only, and why", async () => {
    const jar = await demoSession();
    const response = await call(
      balanceRoute.POST,
      "POST",
      "/api/inquiries/balance",
      { body: { card_number: CARD, location_id: "Магазин-1" } },
      jar,
    );
    expect(response.status).toBe(400);
    const error = await readJson<ErrorBody>(response);
    const [message] = (error.error.details as { fields: Record<string, string[]> }).fields.location_id ?? [];
    expect(message).toMatch(/ASCII characters only/);
    expect(message).toMatch(/specification/);
    expect(message).not.toMatch(/printable/);
  });
});

describe("a client that disconnects mid-body", () => {
  it("is a 4xx in the error shape, logged at info, not an unexpected error", async () => {
    const logs = captureLogs();
    try {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"card_number":"60064'));
          controller.error(new Error("aborted"));
        },
      });
      const request = new Request(`${ORIGIN}/api/inquiries/balance`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN },
        body,
        duplex: "half",
      } as RequestInit);
      const response = await balanceRoute.POST(request);
      expect(response.status).toBe(400);
      expect((await readJson<ErrorBody>(response)).error.code).toBe("request_aborted");
      expect(logs.text()).not.toMatch(/"level":50/);
    } finally {
      logs.restore();
    }
  });
});

describe("sealing", () => {
  it("refuses to seal a session that unsealing would wipe, instead of losing it later", async () => {
    const session = await openSession(new Request(`${ORIGIN}/api/session`));
    session.update({
      credentials: { kind: "demo" },
      token: {
        accessToken: "opaque-token",
        tokenType: "Bearer",
        scope: "x".repeat(3000),
        expiresIn: 7200,
        issuedAt: Date.now(),
        credentialsKey: "k".repeat(32),
        meta: null,
        jsonapi: null,
      },
    });
    const error = await session.commit(new Response()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("session_unstorable");
    expect((error as ApiError).message).toMatch(/tok\.sc/);
  });
});
