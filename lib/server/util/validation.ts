/** Validation that answers 400 `validation_failed` with per-field details: bad input never reaches a 500. */
import "server-only";
import type { z } from "zod";
import type { ValidationErrorDetails } from "@/lib/shared/error-details";
import { ApiError } from "./errors";

/** A field's name in the details: its path, or `(body)` for the whole body. */
export function pathLabel(path: readonly PropertyKey[]): string {
  return path.length === 0 ? "(body)" : path.map(String).join(".");
}

/** 400 `validation_failed` naming the fields; `part` says where they are (the body, the query). */
export function validationError(fields: Record<string, string[]>, part = "request body"): ApiError {
  const details: ValidationErrorDetails = { fields };
  const names = Object.keys(fields);
  return new ApiError(
    "validation_failed",
    `The ${part} is not valid: ${names.slice(0, 5).join(", ")}${names.length > 5 ? ", …" : ""}.`,
    details,
  );
}

/**
 * C0 and C1 controls (NUL above all: PostgreSQL text and jsonb cannot hold it, and one NUL fails a whole
 * statement), DEL, line and paragraph separators, and bidirectional overrides.
 */
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;
/** A UTF-16 surrogate without its pair: no UTF-8 encoding, so the database would store something else. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `value` may not enter the console from outside, or null when it may. */
export function unacceptableText(value: string): string | null {
  if (CONTROL_CHARACTERS.test(value)) return "must not contain control characters";
  if (LONE_SURROGATE.test(value)) return "must not contain a lone UTF-16 surrogate";
  return null;
}

/**
 * Every decoded path segment and query parameter of a request URL is text the console can take in (it may reach
 * a statement or an audit row): 400 `validation_failed` naming them otherwise (a path segment by `segmentName`).
 */
export function assertAcceptableUrl(url: URL, segmentName: (index: number) => string): void {
  const fields: Record<string, string[]> = {};
  url.pathname.split("/").forEach((segment, index) => {
    let why: string | null;
    try {
      why = unacceptableText(decodeURIComponent(segment));
    } catch {
      why = "has malformed %-encoding";
    }
    if (why) fields[segmentName(index)] = [why];
  });
  for (const [name, value] of url.searchParams) {
    const why = unacceptableText(name) ?? unacceptableText(value);
    if (why) fields[unacceptableText(name) ? "(parameter name)" : name.slice(0, 64)] = [why];
  }
  if (Object.keys(fields).length > 0) throw validationError(fields, "request URL");
}

export function zodFieldErrors(error: z.ZodError): Record<string, string[]> {
  // A Map, not an object: field names come from the client ("constructor", "__proto__", …).
  const fields = new Map<string, string[]>();
  const add = (path: string, message: string) => {
    const messages = fields.get(path) ?? [];
    messages.push(message);
    fields.set(path, messages);
  };
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add(pathLabel([...issue.path, key]), "is not a field of this request");
    } else if (issue.code === "invalid_type" && issue.input === undefined) {
      add(pathLabel(issue.path), "is required");
    } else {
      add(pathLabel(issue.path), issue.message);
    }
  }
  return Object.fromEntries(fields);
}

/** Validates a value: 400 `validation_failed` with field details otherwise. */
export function validateInput<S extends z.ZodType>(value: unknown, schema: S): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(zodFieldErrors(parsed.error));
  return parsed.data;
}
