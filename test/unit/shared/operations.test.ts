import { describe, expect, it } from "vitest";
import {
  OPERATIONS,
  OPERATION_SPECS,
  TRANSACTIONS_SCOPE,
  matchOperationPath,
  operationLabel,
  operationPath,
} from "@/lib/shared/operations";
import { createCardApiClient } from "@/lib/server/card-api/client";
import { SANDBOX_PATHS } from "@/lib/sandbox/docs";

describe("operation registry", () => {
  it("routes every operation's path back to that operation, with the Request Id still encoded", () => {
    for (const operation of OPERATIONS) {
      const path = operationPath(operation, "req 1?2#%");
      expect(matchOperationPath(path)).toEqual(
        OPERATION_SPECS[operation].path.includes("{request_id}")
          ? { operation, encodedRequestId: encodeURIComponent("req 1?2#%") }
          : { operation },
      );
    }
  });

  it("matches no other path: an empty or nested Request Id, a prefix, the sandbox's hooks", () => {
    for (const path of [
      "/transaction/v1/transactions/request-id/",
      "/transaction/v1/transactions/request-id/a/b",
      "/transaction/v1/gift",
      "/__sandbox/reset",
    ]) {
      expect(matchOperationPath(path)).toBeNull();
    }
  });

  it("keeps a Request Id one segment of the lookup's path: never `.`, `..`, empty or holding a slash", () => {
    for (const id of [".", "..", "", "a/b", "../x", "a\\b"]) {
      expect(() => operationPath("transaction_lookup", id), JSON.stringify(id)).toThrow(/Request Id/);
    }
    expect(operationPath("transaction_lookup", "...")).toBe("/transaction/v1/transactions/request-id/...");
    expect(operationPath("transaction_lookup", ".%2e")).toBe(
      "/transaction/v1/transactions/request-id/.%252e",
    );
  });

  it("is what the client calls and what the sandbox page documents", () => {
    const client = createCardApiClient({
      transport: () => Promise.reject(new Error("not called")),
      authUrl: "https://auth.example",
      baseUrl: "https://api.example",
      timeoutMs: 1000,
    });
    expect(client.urls.token).toBe(`https://auth.example${OPERATION_SPECS.token.path}`);
    expect(client.urls.balanceInquiry).toBe(`https://api.example${OPERATION_SPECS.balance_inquiry.path}`);
    expect(client.urls.transactionByRequestId("r-1")).toBe(
      `https://api.example${operationPath("transaction_lookup", "r-1")}`,
    );
    expect(SANDBOX_PATHS.transactionByRequestId).toBe(OPERATION_SPECS.transaction_lookup.path);
  });

  it("labels each operation once and requires the transactions scope of every authorized call", () => {
    expect(operationLabel("token")).toBe("Token request");
    expect(OPERATIONS.filter((name) => OPERATION_SPECS[name].requiredScope === TRANSACTIONS_SCOPE)).toEqual([
      "gift_balance_inquiry",
      "balance_inquiry",
      "transaction_lookup",
    ]);
    expect(OPERATIONS.filter((name) => OPERATION_SPECS[name].recordsTransaction)).toEqual([
      "gift_balance_inquiry",
    ]);
  });
});
