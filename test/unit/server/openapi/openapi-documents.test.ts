/**
 * The OpenAPI documents are well-formed (every schema compiles under a strict JSON Schema 2020-12 validator)
 * and complete: every console route under app/api is described, and the sandbox document has its four
 * operations. Real answers are checked against them in test/integration/deploy/standalone.test.ts.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { consoleOpenApiDocument } from "@/lib/server/openapi/console-document";
import { sandboxOpenApiDocument } from "@/lib/sandbox/openapi";
import { OPERATION_SPECS } from "@/lib/shared/operations";
import { OpenApiValidator } from "../../../support/openapi-validator";

const root = path.resolve(__dirname, "../../../..");

/** `app/api/transactions/request-id/[id]/route.ts` → `/api/transactions/request-id/{id}`. */
function routePaths(folder: string, prefix: string): string[] {
  const entries = readdirSync(folder, { withFileTypes: true });
  const here = entries.some((entry) => entry.name === "route.ts") ? [prefix] : [];
  return [
    ...here,
    ...entries
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith("[..."))
      .flatMap((entry) =>
        routePaths(path.join(folder, entry.name), `${prefix}/${entry.name.replace(/^\[(\w+)\]$/, "{$1}")}`),
      ),
  ];
}

describe("the console's OpenAPI document", () => {
  const document = consoleOpenApiDocument("http://localhost:3000");

  test("is OpenAPI 3.1 whose schemas all compile", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(() => new OpenApiValidator(document).compileAll()).not.toThrow();
  });

  test("describes every route the console has", () => {
    const described = Object.keys(document.paths as object);
    expect(
      routePaths(path.join(root, "app/api"), "/api").filter((route) => !described.includes(route)),
    ).toEqual([]);
  });

  test("describes request bodies as the routes validate them", () => {
    const validator = new OpenApiValidator(document);
    const gift = "/api/inquiries/gift-balance";
    expect(
      validator.requestBody("POST", gift, { card_number: "6006491000000001", location_id: "s1" }),
    ).toEqual([]);
    expect(validator.requestBody("POST", gift, { card_number: "6006", location_id: "s1" })).not.toEqual([]);
    expect(validator.requestBody("POST", gift, { card_number: "6006491000000001" })).not.toEqual([]);
    expect(
      validator.requestBody("POST", gift, { card_number: "6006491000000001", location_id: "s1", extra: 1 }),
    ).not.toEqual([]);
    expect(validator.requestBody("PUT", "/api/session/credentials", { profile: "demo" })).toEqual([]);
    expect(validator.requestBody("PUT", "/api/session/credentials", { client_id: "a" })).not.toEqual([]);
  });
});

describe("the sandbox's OpenAPI document", () => {
  const document = sandboxOpenApiDocument({ sandboxUrl: "http://localhost:3000/sandbox" });

  test("is OpenAPI 3.1 with token, both balance operations and lookup, whose schemas all compile", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths as object).sort()).toEqual(
      [
        OPERATION_SPECS.token.path,
        OPERATION_SPECS.gift_balance_inquiry.path,
        OPERATION_SPECS.balance_inquiry.path,
        OPERATION_SPECS.transaction_lookup.path,
      ].sort(),
    );
    expect(() => new OpenApiValidator(document).compileAll()).not.toThrow();
  });
});
