/**
 * A handler's input is read through its route's declaration: the body, query and path parameters are validated
 * with the declared schemas, and bad input is a 400 in the one error shape naming the field.
 */
import { describe, expect, it } from "vitest";
import { declaredBody, declaredParams, declaredQuery } from "@/lib/server/http/declared-input";
import { ROUTES } from "@/lib/server/routes";
import { ApiError } from "@/lib/server/util/errors";

function refusal(read: () => unknown): { code: string; fields: unknown } {
  try {
    read();
  } catch (error) {
    if (error instanceof ApiError)
      return { code: error.code, fields: (error.details as { fields?: unknown })?.fields };
    throw error;
  }
  throw new Error("accepted");
}

describe("input read through the declaration", () => {
  it("the body: its schema, an empty body only where declared, a union's errors in the form meant", () => {
    const token = ROUTES["/api/token"].POST;
    expect(declaredBody(token, "")).toBeUndefined();
    expect(declaredBody(token, "{}")).toEqual({});
    expect(refusal(() => declaredBody(token, '{"x":1}'))).toEqual({
      code: "validation_failed",
      fields: { x: ["is not a field of this request"] },
    });
    const credentials = ROUTES["/api/session/credentials"].PUT;
    expect(refusal(() => declaredBody(credentials, "")).code).toBe("invalid_json");
    expect(refusal(() => declaredBody(credentials, '{"client_id":"a"}')).fields).toHaveProperty(
      "client_secret",
    );
  });

  it("the query: its schema, an empty parameter as absent", () => {
    const runs = ROUTES["/api/runs"].GET;
    expect(declaredQuery(runs, new URL("http://x/api/runs?user=&operation=balance_inquiry"))).toEqual({
      operation: "balance_inquiry",
    });
    expect(
      refusal(() => declaredQuery(runs, new URL("http://x/api/runs?operation=token"))).fields,
    ).toHaveProperty("operation");
  });

  it("the path: each [name] segment decoded and validated", () => {
    const lookup = ROUTES["/api/transactions/request-id/[id]"].GET;
    const url = (id: string) => new URL(`http://x/api/transactions/request-id/${id}`);
    expect(declaredParams(lookup, lookup.template, url("req%2D1"))).toEqual({ id: "req-1" });
    expect(refusal(() => declaredParams(lookup, lookup.template, url("%E0%A4%A")))).toEqual({
      code: "validation_failed",
      fields: { id: ["is not valid percent-encoding"] },
    });
    expect(
      refusal(() => declaredParams(lookup, lookup.template, url("x".repeat(200)))).fields,
    ).toHaveProperty("id");
  });
});
