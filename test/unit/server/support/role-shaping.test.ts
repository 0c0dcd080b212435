/**
 * Role shaping of the support desk (docs/design.md §6): a support agent sees and leaves in the audit log only the last
 * 4 digits; other roles see first 6 + last 4; the support role cannot reach a Gift Balance Inquiry, a raw exchange
 * or token details, and may use the desk in every environment.
 */
import { describe, expect, test } from "vitest";
import { assertAllowed } from "@/lib/server/identity/enforce";
import { ENVIRONMENTS } from "@/lib/shared/contracts";
import { lookupAuditEntry } from "@/lib/server/support/audit-rows";
import { supportLookupInputSchema } from "@/lib/shared/support-contract";
import { shownCard } from "@/lib/server/support/lookup";

const CARD = "6006491000000001";
const actor = (roles: ("support" | "engineer" | "admin")[]) => ({ userId: "u", roles, clientAddress: null });

describe("support desk role shaping", () => {
  test("support sees the last 4; any other role first 6 + last 4", () => {
    expect(shownCard(CARD, ["support"])).toEqual({ last4: "0001", masked: "************0001" });
    expect(shownCard(CARD, ["support", "engineer"])).toEqual({ last4: "0001", masked: "600649******0001" });
  });

  test("audit rows keep the card as the caller may see it, with the reason and the outcome", () => {
    const entry = lookupAuditEntry({
      actor: actor(["support"]),
      environment: "production",
      cardNumber: CARD,
      outcome: "found",
      upstreamStatus: 200,
      reason: "TICKET-1",
    });
    expect(entry).toMatchObject({
      event: "support_lookup",
      outcome: "success",
      cardMask: "last4",
      operation: "balance_inquiry",
      reason: "TICKET-1",
      details: { result: "found" },
    });
    const failed = lookupAuditEntry({
      actor: actor(["engineer"]),
      environment: "embedded",
      cardNumber: CARD,
      outcome: "not_found",
      upstreamStatus: 404,
      reason: undefined,
      batch: { id: "b", position: 3, line: 5 },
    });
    expect(failed).toMatchObject({
      event: "support_batch_card",
      outcome: "failure",
      cardMask: "first6last4",
      details: { result: "not_found", batch_id: "b", position: 3, line: 5 },
    });
  });

  test("support may use the desk everywhere, and nothing it must not", () => {
    for (const environment of ENVIRONMENTS) {
      expect(() => assertAllowed(["support"], "support_lookup", environment)).not.toThrow();
      expect(() => assertAllowed(["support"], "support_batch", environment)).not.toThrow();
      for (const action of [
        "gift_balance_inquiry",
        "raw_exchange",
        "token_details",
        "copy_as_code",
      ] as const) {
        expect(() => assertAllowed(["support"], action, environment)).toThrow(
          expect.objectContaining({ code: "forbidden_by_role" }),
        );
      }
    }
  });

  test("the lookup body is strict: no operation, environment or location can be chosen", () => {
    for (const extra of [
      { operation: "gift_balance_inquiry" },
      { environment: "production" },
      { location_id: "x" },
    ]) {
      expect(supportLookupInputSchema.safeParse({ card_number: CARD, ...extra }).success).toBe(false);
    }
    expect(supportLookupInputSchema.parse({ card_number: "6006-4910 0000 0001" })).toEqual({
      card_number: CARD,
    });
  });
});
