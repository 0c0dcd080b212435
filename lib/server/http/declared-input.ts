/**
 * A call's input read through its route's declaration: the JSON body, the query and the path parameters, each
 * validated with the declared schema (400 `invalid_json` / `validation_failed` with field details otherwise).
 */
import "server-only";
import { z } from "zod";
import { validateInput, validationError, zodFieldErrors } from "@/lib/server/util/validation";
import type { RouteDeclaration } from "./declaration";
import { parseJsonBody } from "./guards";

function validatePart(value: unknown, schema: z.ZodType, part: string): unknown {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(zodFieldErrors(parsed.error), part);
  return parsed.data;
}

/** The body by its declaration; a route that declares none takes none. */
export function declaredBody(declaration: RouteDeclaration, text: string): unknown {
  const body = declaration.body;
  if (!body) throw new Error(`${declaration.summary}: this route declares no JSON body`);
  if (body.required === false && text.trim() === "") return undefined;
  if (!body.formOf) return parseJsonBody(text, body.schema);
  const raw = parseJsonBody(text, z.looseObject({}));
  return validateInput(raw, body.formOf(raw));
}

/** The query's parameters (an empty one as absent), validated with the declared schema. */
export function declaredQuery(declaration: RouteDeclaration, url: URL): unknown {
  if (!declaration.query) throw new Error(`${declaration.summary}: this route declares no query`);
  const given = [...url.searchParams].filter(([, value]) => value.trim() !== "");
  return validatePart(Object.fromEntries(given), declaration.query, "query");
}

/** `[name]` segments of `template` by position, read from `url`'s path and validated when a schema is declared. */
export function declaredParams(declaration: RouteDeclaration, template: string, url: URL): unknown {
  const parts = url.pathname.split("/");
  const values: Record<string, string> = {};
  template.split("/").forEach((part, index) => {
    const name = /^\[(\w+)\]$/.exec(part)?.[1];
    if (!name) return;
    try {
      values[name] = decodeURIComponent(parts[index] ?? "");
    } catch {
      throw validationError({ [name]: ["is not valid percent-encoding"] }, "request URL");
    }
  });
  return declaration.params ? validatePart(values, declaration.params, "request URL") : values;
}
