/** The specification's response shapes (lib/shared/card-api-schemas.ts) and how their issues are reported. */
import "server-only";
import type { z } from "zod";

export * from "@/lib/shared/card-api-schemas";

/** zod issues as short `path: message` lines for the exchange record. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.slice(0, 20).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join(".") : "(body)";
    return `${path}: ${issue.message}`;
  });
}
