import { describe, expect, test } from "vitest";
import {
  canonicalSerialisation,
  GENESIS_HASH,
  legacyRowHash,
  rowHash,
  type ChainedFields,
} from "@/lib/server/audit/chain";
import { csvCell } from "@/lib/server/audit/csv";
import { cardHmac, scrubText, toAuditEntry } from "@/lib/server/audit/entry";

const base = (): ChainedFields => ({
  ...toAuditEntry(
    { event: "inquiry.balance", outcome: "success", card: "6006491000000001", details: { b: 1, a: "x" } },
    "k",
  ),
  seq: 1,
  time: new Date("2026-01-01T00:00:00.123Z"),
  prevHash: GENESIS_HASH,
});

describe("audit entries", () => {
  test("free text loses card numbers, bearer tokens, JWTs and iron seals, and keeps request ids and UUIDs", () => {
    expect(scrubText("card 6006491000000001 and 4111-1111")).toBe("card 600649******0001 and 4111-1111");
    expect(scrubText("Authorization: Bearer abcdefghijklmnop")).toBe("Authorization: Bearer [REDACTED]");
    expect(scrubText("id eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig seal Fe26.2*1*abc*def")).toBe(
      "id [REDACTED] seal [REDACTED]",
    );
    expect(scrubText("req-123456789012345-x 123e4567-e89b-12d3-a456-426614174000")).toBe(
      "req-123456789012345-x 123e4567-e89b-12d3-a456-426614174000",
    );
  });

  test("the card is kept as its mask (or last 4) and a keyed hash that depends on the key", () => {
    const entry = toAuditEntry({ event: "x", outcome: "success", card: "6006-4910-0000-0001" }, "key-1");
    expect(entry).toMatchObject({ cardMasked: "600649******0001", cardLast4: "0001" });
    expect(entry.cardHmac).toBe(cardHmac("key-1", "6006491000000001"));
    expect(entry.cardHmac).not.toBe(cardHmac("key-2", "6006491000000001"));
    expect(
      toAuditEntry({ event: "x", outcome: "success", card: "6006491000000001", cardMask: "last4" }, "k")
        .cardMasked,
    ).toBe("0001");
  });

  test("secret-named details are redacted and unknown top-level fields are refused", () => {
    const entry = toAuditEntry(
      { event: "x", outcome: "failure", details: { access_token: "abc", Password: "p", count: 3 } },
      "k",
    );
    expect(entry.details).toEqual({ access_token: "[REDACTED]", Password: "[REDACTED]", count: 3 });
    expect(() => toAuditEntry({ event: "x", outcome: "success", secret: "s" } as never, "k")).toThrow();
  });
});

describe("the hash chain's serialisation", () => {
  test("does not depend on the order of detail keys, and changes with any field", () => {
    const row = base();
    const reordered = { ...row, details: { a: "x", b: 1 } };
    expect(canonicalSerialisation(reordered)).toBe(canonicalSerialisation(row));
    const key = Buffer.alloc(32, 7);
    expect(rowHash(row, key)).toMatch(/^[0-9a-f]{64}$/);
    for (const change of [
      { outcome: "failure" as const },
      { seq: 2 },
      { time: new Date("2026-01-01T00:00:00.124Z") },
      { prevHash: "1".repeat(64) },
      { details: { a: "x", b: 2 } },
      { reason: "" },
    ]) {
      expect(rowHash({ ...row, ...change }, key)).not.toBe(rowHash(row, key));
    }
  });

  test("is keyed: another key, or the plain SHA-256 of earlier versions, gives another hash", () => {
    const row = base();
    const key = Buffer.alloc(32, 7);
    expect(rowHash(row, Buffer.alloc(32, 8))).not.toBe(rowHash(row, key));
    expect(legacyRowHash(row)).not.toBe(rowHash(row, key));
    expect(legacyRowHash(row)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("CSV cells", () => {
  test("are quoted when needed and never start a spreadsheet formula", () => {
    expect(csvCell(null)).toBe("");
    expect(csvCell(42)).toBe("42");
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("-1,2")).toBe('"\'-1,2"');
  });
});
