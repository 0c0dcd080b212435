/** The inquiry form's checks before sending: a Request Id the sandbox would refuse is flagged. */
import { describe, expect, it } from "vitest";
import { validateInquiry } from "@/components/inquiry/use-inquiry-form";

const values = {
  cardNumber: "6006491000000001",
  locationId: "store-001",
  entryMode: "keyed",
  pinMode: "none",
  requestId: "",
};

describe("the inquiry form's Request Id", () => {
  it("flags one with a space inside, which the sandbox refuses", () => {
    expect(validateInquiry({ ...values, requestId: "order 42" }, "gift_balance_inquiry").requestId).toMatch(
      /No spaces/,
    );
  });

  it("takes one without spaces, and none at all", () => {
    expect(validateInquiry({ ...values, requestId: "order-42" }, "gift_balance_inquiry")).toEqual({});
    expect(validateInquiry(values, "gift_balance_inquiry")).toEqual({});
  });
});
