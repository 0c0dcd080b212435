/**
 * The OpenAPI documents carry examples a client can send as they stand: on every request body and parameter of
 * the sandbox's document, and on the console's request bodies, each valid against its own schema.
 */
import { describe, expect, it } from "vitest";
import { consoleOpenApiDocument } from "@/lib/server/openapi/console-document";
import { sandboxOpenApiDocument } from "@/lib/sandbox/openapi";
import { OpenApiValidator } from "../../../support/openapi-validator";

type Operation = {
  parameters?: { name: string; example?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
};
const operations = (document: Record<string, unknown>) =>
  Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );

describe("examples in the OpenAPI documents", () => {
  it("the sandbox's: every request body and parameter, with the demo client, a test card and a found Request Id", () => {
    const document = sandboxOpenApiDocument({ sandboxUrl: "https://console.example/sandbox" });
    const missing = operations(document).flatMap(({ path, method, operation }) => [
      ...(operation.parameters ?? [])
        .filter((parameter) => parameter.example === undefined)
        .map((parameter) => `${method} ${path} ${parameter.name}`),
      ...(operation.requestBody && operation.requestBody.content["application/json"]?.example === undefined
        ? [`${method} ${path} body`]
        : []),
    ]);
    expect(missing).toEqual([]);
    const text = JSON.stringify(document);
    for (const value of ["demo-client", "6006491000000001", "example-gift-balance-inquiry", "{{$guid}}"]) {
      expect(text).toContain(value);
    }
    const validator = new OpenApiValidator(document);
    for (const { path, method, operation } of operations(document)) {
      const example = operation.requestBody?.content["application/json"]?.example;
      if (example !== undefined)
        expect([path, validator.requestBody(method, path, example)]).toEqual([path, []]);
    }
  });

  it("the console's: every JSON request body, valid against its schema", () => {
    const document = consoleOpenApiDocument("https://console.example");
    const validator = new OpenApiValidator(document);
    for (const { path, method, operation } of operations(document)) {
      const content = operation.requestBody?.content["application/json"];
      if (!content) continue;
      expect([method, path, content.example === undefined]).toEqual([method, path, false]);
      expect([method, path, validator.requestBody(method, path, content.example)]).toEqual([
        method,
        path,
        [],
      ]);
    }
  });
});
