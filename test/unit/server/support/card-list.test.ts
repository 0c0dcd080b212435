import { describe, expect, test } from "vitest";
import { MAX_REPORTED_BAD_LINES, normalizeCardNumber, parseCardList } from "@/lib/server/support/card-list";

const numbers = (text: string) => parseCardList(text).cards.map((card) => card.cardNumber);

describe("support batch card lists", () => {
  test("one card per line, spaces and dashes tolerated, blank lines skipped", () => {
    const list = parseCardList("6006491000000001\n\n6006 4910 0000 0019\n  6006-4910-0000-0027  \n");
    expect(list.cards).toEqual([
      { line: 1, cardNumber: "6006491000000001" },
      { line: 3, cardNumber: "6006491000000019" },
      { line: 4, cardNumber: "6006491000000027" },
    ]);
    expect(list.badLines).toEqual([]);
    expect(list.headerLine).toBeNull();
  });

  test("a card_number column with a header, in any position, with quoted fields", () => {
    const csv = [
      'ticket,"Card Number",note',
      'T-1,"6006491000000001","says ""hello"", twice"',
      'T-2,6006491000000019,"a note',
      'over two lines"',
      "T-3,6006491000000027,",
    ].join("\n");
    const list = parseCardList(csv);
    expect(list.headerLine).toBe(1);
    // The other columns are kept per line, beside the card (the results CSV writes them back).
    expect(list.columns).toEqual(["ticket", "note"]);
    expect(list.cards).toEqual([
      { line: 2, cardNumber: "6006491000000001", extra: ["T-1", 'says "hello", twice'] },
      { line: 3, cardNumber: "6006491000000019", extra: ["T-2", "a note\nover two lines"] },
      { line: 5, cardNumber: "6006491000000027", extra: ["T-3", ""] },
    ]);
  });

  test("a byte-order mark and CRLF (and lone CR) line ends", () => {
    const list = parseCardList(
      "\uFEFFcard_number\r\n6006491000000001\r\n6006491000000019\r6006491000000027\r\n",
    );
    expect(list.headerLine).toBe(1);
    expect(list.cards.map((card) => card.line)).toEqual([2, 3, 4]);
    expect(numbers("\uFEFF6006491000000001\r\n")).toEqual(["6006491000000001"]);
  });

  test("without a header, the first field that is a card number counts", () => {
    expect(numbers("T-1,6006491000000001\nT-2,6006491000000019,x")).toEqual([
      "6006491000000001",
      "6006491000000019",
    ]);
  });

  test("bad lines are reported by line number, never fatal, without repeating their content", () => {
    const list = parseCardList("card_number\n6006491000000001\nhello\n12345\n\n6006491000000019\nT-9,\n");
    expect(list.cards.map((card) => card.line)).toEqual([2, 6]);
    expect(list.badLines).toEqual([
      { line: 3, message: expect.stringMatching(/not a card number/) },
      { line: 4, message: "5 digits: a card number has 12 to 19 digits" },
      { line: 7, message: expect.stringMatching(/not a card number|no value/) },
    ]);
    expect(list.badLineCount).toBe(3);
    expect(JSON.stringify(list.badLines)).not.toContain("hello");
  });

  test("a quoted field keeps commas and its line number is where the record starts", () => {
    const list = parseCardList('"6006491000000001"\n"x,\ny"\n6006491000000019');
    expect(list.cards).toEqual([
      { line: 1, cardNumber: "6006491000000001" },
      { line: 4, cardNumber: "6006491000000019" },
    ]);
    expect(list.badLines.map((bad) => bad.line)).toEqual([2]);
  });

  test("10,000 lines, with bad ones spread through, in order and with their line numbers", () => {
    const lines = ["card_number"];
    for (let index = 0; index < 10_000; index += 1) {
      lines.push(index % 1000 === 999 ? "oops" : `600649${String(index).padStart(10, "0")}`);
    }
    const list = parseCardList(lines.join("\r\n"));
    expect(list.cards).toHaveLength(9_990);
    expect(list.cards[0]).toEqual({ line: 2, cardNumber: "6006490000000000" });
    expect(list.cards.at(-1)).toEqual({ line: 10_000, cardNumber: "6006490000009998" });
    expect(list.badLines.map((bad) => bad.line)).toEqual(
      Array.from({ length: 10 }, (_, index) => (index + 1) * 1000 + 1),
    );
  });

  test("bad lines beyond the reported maximum are still counted", () => {
    const list = parseCardList(Array.from({ length: MAX_REPORTED_BAD_LINES + 50 }, () => "x").join("\n"));
    expect(list.badLines).toHaveLength(MAX_REPORTED_BAD_LINES);
    expect(list.badLineCount).toBe(MAX_REPORTED_BAD_LINES + 50);
    expect(list.cards).toEqual([]);
  });

  test("normalizeCardNumber", () => {
    expect(normalizeCardNumber(" 6006-4910 0000-0001 ")).toBe("6006491000000001");
    expect(normalizeCardNumber("60064910000000011234")).toBeNull();
    expect(normalizeCardNumber("6006a91000000001")).toBeNull();
  });
});
