/** The inquiry's input schema: what a caller is told about a card number sent as a number, and the location limit. */
import { describe, expect, it } from "vitest";
import { balanceInquiryInputSchema } from "@/lib/shared/contracts";

const issuesOf = (input: unknown) =>
  (balanceInquiryInputSchema.safeParse(input).error?.issues ?? []).map(
    (issue) => `${issue.path.join(".")}: ${issue.message}`,
  );

describe("inquiry input", () => {
  it("says a card number sent as a JSON number must be a string", () => {
    expect(issuesOf({ card_number: 6006491000000001, location_id: "store-001" })).toEqual([
      "card_number: must be a string (the digits in quotes), not a number",
    ]);
  });

  it("takes a location_id up to the sandbox's 128 characters, not more", () => {
    expect(issuesOf({ card_number: "6006491000000001", location_id: "l".repeat(128) })).toEqual([]);
    expect(issuesOf({ card_number: "6006491000000001", location_id: "l".repeat(129) })).toHaveLength(1);
  });
});
