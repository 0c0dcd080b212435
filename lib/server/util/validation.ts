/** Validation that answers 400 `validation_failed` with per-field details: bad input never reaches a 500. */
import "server-only";
import type { z } from "zod";
import type { ValidationErrorDetails } from "@/lib/shared/error-details";
import { ApiError } from "./errors";

/** A field's name in the details: its path, or `(body)` for the whole body. */
export function pathLabel(path: readonly PropertyKey[]): string {
  return path.length === 0 ? "(body)" : path.map(String).join(".");
}

export function validationError(fields: Record<string, string[]>): ApiError {
  const details: ValidationErrorDetails = { fields };
  const names = Object.keys(fields);
  return new ApiError(
    "validation_failed",
    `The request body is not valid: ${names.slice(0, 5).join(", ")}${names.length > 5 ? ", …" : ""}.`,
    details,
  );
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
