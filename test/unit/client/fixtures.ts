import type { ExchangeRecord } from "@/lib/shared/contracts";

export const FULL_CARD = "6006491000000001";
export const MASKED_CARD = "600649******0001";

export function giftExchange(overrides: Partial<ExchangeRecord> = {}): ExchangeRecord {
  return {
    id: "run-gift-1",
    operation: "gift_balance_inquiry",
    environment: "embedded",
    started_at: "2025-01-01T10:00:00.000Z",
    duration_ms: 42,
    request_id: "6b4b7b38-1d47-4a0e-9f1e-1d0f3e0c6a11",
    request: {
      method: "POST",
      url: "http://localhost:3000/sandbox/transaction/v1/gift/balance-inquiry",
      headers: {
        Authorization: "Bearer [redacted]",
        "Content-Type": "application/json",
        "X-Request-Id": "6b4b7b38-1d47-4a0e-9f1e-1d0f3e0c6a11",
      },
      body: {
        data: {
          entry_mode: "keyed",
          card_number: MASKED_CARD,
          pin_mode: "none",
          originator: { location_id: "store-1" },
        },
      },
    },
    response: {
      status: 201,
      headers: { "content-type": "application/json" },
      body: {
        data: {
          transaction_id: "0d4f0a2e-8d4b-4d7e-9b1a-6a2f7c1d9e01",
          external_id: "5a1c2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
          card_number: MASKED_CARD,
          response_status: "approved",
          response_code: "transaction_approved",
          response_message: "Approved",
          balance: "25.00",
        },
      },
    },
    token_events: [],
    ...overrides,
  };
}

export function tokenExchange(): ExchangeRecord {
  return {
    id: "run-token-1",
    operation: "token",
    environment: "embedded",
    started_at: "2025-01-01T09:00:00.000Z",
    duration_ms: 12,
    request: {
      method: "POST",
      url: "http://localhost:3000/sandbox/reporting/v1/auth/token",
      headers: { "Content-Type": "application/json; charset=utf-8" },
      body: { client_id: "demo-client", client_secret: "[redacted]", grant_type: "client_credentials" },
    },
    response: {
      status: 200,
      headers: { "content-type": "application/json" },
      body: {
        data: {
          type: "oauth-token",
          attributes: {
            access_token: "[redacted]",
            token_type: "Bearer",
            expires_in: 7200,
            scope: "read:reports read:transactions export:reports",
          },
        },
      },
    },
    token_events: [{ type: "acquired", at: "2025-01-01T09:00:00.000Z", fingerprint: "a1b2c3d4e5f6" }],
  };
}
