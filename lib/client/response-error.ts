import type { ExchangeRecord } from "@/lib/shared/contracts";

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringAt(object: JsonObject, key: string): string | null {
  const value = object[key];
  return typeof value === "string" ? value : null;
}

/**
 * The first JSON:API error of an error body (`{"errors": [{status, code, title, detail}]}`), or null. Its own
 * module so that a page showing one result does not load the whole record diff.
 */
export function responseError(
  record: ExchangeRecord,
): { code: string | null; title: string | null; detail: string | null } | null {
  const body = record.response.body;
  if (record.response.body_is_text || !isObject(body) || !Array.isArray(body.errors)) return null;
  const first: unknown = body.errors[0];
  if (!isObject(first)) return null;
  return {
    code: stringAt(first, "code"),
    title: stringAt(first, "title"),
    detail: stringAt(first, "detail"),
  };
}
