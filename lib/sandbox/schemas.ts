/** zod schemas of what the sandbox accepts (API specification §4.1 and §2.3). */
import { z } from "zod";

export const tokenRequestSchema = z.object({
  client_id: z.string({ error: "client_id is required and must be a string" }).min(1, "client_id is empty"),
  client_secret: z
    .string({ error: "client_secret is required and must be a string" })
    .min(1, "client_secret is empty"),
  grant_type: z
    .string({ error: "grant_type is required and must be a string" })
    .min(1, "grant_type is empty"),
});

const text = (field: string) =>
  z
    .string({ error: `${field} is required and must be a string` })
    .min(1, `${field} is empty`)
    .max(128, `${field} is longer than 128 characters`);

export const cardRequestSchema = z.object(
  {
    data: z.object(
      {
        entry_mode: text("data.entry_mode"),
        card_number: z
          .string({ error: "data.card_number is required and must be a string" })
          .regex(/^\d{12,19}$/, "data.card_number must be 12 to 19 digits"),
        pin_mode: text("data.pin_mode"),
        // Other originator fields are not shown in the spec: kept and echoed as sent.
        originator: z.looseObject(
          { location_id: text("data.originator.location_id") },
          { error: "data.originator is required and must be an object" },
        ),
      },
      { error: "data is required and must be an object" },
    ),
  },
  { error: "the body must be a JSON object" },
);
export type CardRequest = z.infer<typeof cardRequestSchema>;

/** X-Request-Id: printable ASCII without spaces, at most 128 characters. */
export const requestIdSchema = z.string().regex(/^[\x21-\x7E]{1,128}$/);

/** The first issue of a failed parse, as one sentence for an error's `detail`. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? issue.message : "the body is not valid";
}
