/** zod schemas of what the sandbox accepts (API specification §4.1 and §2.3; the card request is the spec's, shared). */
import { z } from "zod";

export { cardRequestSchema, type CardRequest } from "@/lib/shared/card-api-schemas";

export const tokenRequestSchema = z.object({
  client_id: z.string({ error: "client_id is required and must be a string" }).min(1, "client_id is empty"),
  client_secret: z
    .string({ error: "client_secret is required and must be a string" })
    .min(1, "client_secret is empty"),
  grant_type: z
    .string({ error: "grant_type is required and must be a string" })
    .min(1, "grant_type is empty"),
});

/** X-Request-Id: printable ASCII without spaces, at most 128 characters. */
export const requestIdSchema = z.string().regex(/^[\x21-\x7E]{1,128}$/);

/** The first issue of a failed parse, as one sentence for an error's `detail`. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? issue.message : "the body is not valid";
}
