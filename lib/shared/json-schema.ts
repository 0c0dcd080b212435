/**
 * zod → JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) with zod's own converter, so a document says
 * exactly what the code validates with. `input`: what the code accepts (unknown keys of a plain object pass,
 * defaults optional); `output`: what it produces (every key listed, nothing else).
 * Why not @asteasolutions/zod-to-openapi: OpenAPI 3.1's schema dialect is JSON Schema 2020-12, which
 * `z.toJSONSchema` emits as is, so the documents need no further dependency and no `.openapi()` extension of
 * zod; the paths around the schemas are plain objects (lib/server/openapi/*-document.ts).
 */
import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    // Refinements and transforms have no JSON Schema form: the type before them is described.
    unrepresentable: "any",
  }) as JsonSchema;
  delete converted.$schema;
  return converted;
}

export const jsonContent = (schema: JsonSchema) => ({ "application/json": { schema } });

/** Components named once and referenced from operations. */
export function componentRef(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}
