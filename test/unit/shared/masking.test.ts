/** Card number masking (isomorphic): first 6 + last 4, in text and deep in JSON, sparing identifiers. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  lastFourOnly,
  maskCardNumber,
  maskCardNumbersDeep,
  maskCardNumbersInText,
} from "@/lib/shared/masking";
import { defaultRedactor } from "@/lib/shared/redaction";

describe("maskCardNumber", () => {
  it("keeps the first 6 and last 4 digits of 12 to 19 digit numbers", () => {
    expect(maskCardNumber("6006491000000001")).toBe("600649******0001");
    expect(maskCardNumber("123456789012")).toBe("123456**9012");
    expect(maskCardNumber("1234567890123456789")).toBe("123456*********6789");
  });

  it("masks anything else whole", () => {
    expect(maskCardNumber("12345")).toBe("*****");
    expect(maskCardNumber("not-a-card")).not.toContain("card");
  });
});

describe("maskCardNumbersInText", () => {
  it("masks every card-like run in free text", () => {
    expect(maskCardNumbersInText("card 6006491000000001 and 6006491000000019 not found")).toBe(
      "card 600649******0001 and 600649******0019 not found",
    );
  });

  it("masks card numbers written in groups with spaces or dashes", () => {
    expect(maskCardNumbersInText("card 6006 4910 0000 0001 is inactive")).toBe(
      "card 600649******0001 is inactive",
    );
    expect(maskCardNumbersInText("6006-4910-0000-0001")).toBe("600649******0001");
    expect(maskCardNumbersInText('{"pan":"6006 491000 000001"}')).toBe('{"pan":"600649******0001"}');
    expect(maskCardNumbersDeep({ echo: "6006-4910-0000-0019" })).toEqual({ echo: "600649******0019" });
    // Dates, times and short groups are not cards.
    const text = "2026-11-22 23:42:49, 1 2 3, 600-649";
    expect(maskCardNumbersInText(text)).toBe(text);
  });

  it("leaves shorter digit runs, UUIDs, req-<number> request ids, IPv4 addresses and amounts alone", () => {
    const text =
      "id 12345678901 uuid 123e4567-e89b-12d3-a456-426614174000 req-17953109459860001-8b7cb0aa from 192.168.100.200 paid 1234.56 at 2026-11-24T22:07:53.037Z";
    expect(maskCardNumbersInText(text)).toBe(text);
  });

  it("masks a card followed by another number: a run longer than 19 digits keeps only its last 4", () => {
    expect(maskCardNumbersInText("ticket 6006491000000001 2024")).toBe("ticket ****************2024");
    expect(maskCardNumbersInText("ts 12345678901234567890")).toBe("ts ****************7890");
  });

  it("masks card numbers grouped with dots, slashes or underscores", () => {
    for (const separator of [".", "/", "_"]) {
      const grouped = ["6006", "4910", "0000", "0001"].join(separator);
      expect(maskCardNumbersInText(`card ${grouped}.`)).toBe("card 600649******0001.");
    }
  });

  it("never lets a card's digits through, whatever surrounds it or separates its groups (property)", () => {
    const noise = fc.string({
      unit: fc.constantFrom("a", " ", ".", "/", "_", "-", "1", "9", ":", ","),
      maxLength: 8,
    });
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{12,19}$/),
        fc.constantFrom("", " ", "-", ".", "/", "_"),
        noise,
        noise,
        (card, separator, before, after) => {
          const written = card.match(/.{1,4}/g)!.join(separator);
          const masked = maskCardNumbersInText(`${before}${written}${after}`);
          expect(masked.replace(/[^\d]/g, "")).not.toContain(card);
        },
      ),
    );
  });

  it("never lets a 12–19 digit card through (property)", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{12,19}$/),
        fc.string({ maxLength: 10 }).filter((s) => !/\d$/.test(s) && !/req-$/.test(s)),
        fc.string({ maxLength: 10 }).filter((s) => !/^\d/.test(s)),
        (card, before, after) => {
          expect(maskCardNumbersInText(`${before}${card}${after}`)).not.toContain(card);
        },
      ),
    );
  });
});

describe("maskCardNumbersDeep", () => {
  it("masks strings, keys and large integers at any depth without changing the input", () => {
    const input = {
      data: { card_number: "6006491000000001", list: ["x 6006491000000019 y", { n: 6006491000000027 }] },
      "6006491000000035": true,
    };
    const copy = structuredClone(input);
    expect(maskCardNumbersDeep(input)).toEqual({
      data: { card_number: "600649******0001", list: ["x 600649******0019 y", { n: "600649******0027" }] },
      "600649******0035": true,
    });
    expect(input).toEqual(copy);
  });

  it("keeps a key named __proto__ as an own key, masked like any other, and the copy's prototype plain", () => {
    const input = JSON.parse('{"__proto__":{"card":"6006491000000001"},"n":1}') as object;
    const masked = maskCardNumbersDeep(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
    expect(Object.keys(masked)).toEqual(["__proto__", "n"]);
    expect(JSON.stringify(masked)).toBe('{"__proto__":{"card":"600649******0001"},"n":1}');
  });
});

describe("lastFourOnly", () => {
  it("keeps only the last 4 of each masked card in text, for a page that shows no more", () => {
    const note = maskCardNumbersInText("replaced 6006491000000001 by 600649100000000019 on 2026-11-28");
    expect(lastFourOnly(note)).toBe("replaced ************0001 by **************0019 on 2026-11-28");
    expect(lastFourOnly("Ada Lovelace, ticket 123456")).toBe("Ada Lovelace, ticket 123456");
  });
});

describe("cards written as a person or a JSON parser reads them", () => {
  const CARD = "6006491000000001";

  it("masks groups spaced by several spaces or tabs, and single digits listed with commas", () => {
    expect(maskCardNumbersInText("card 6006  4910  0000  0001 here")).toBe("card 600649******0001 here");
    expect(maskCardNumbersInText("6006\t4910\t0000\t0001")).toBe("600649******0001");
    expect(maskCardNumbersInText(`pan ${[...CARD].join(",")} end`)).toBe("pan 600649******0001 end");
    expect(maskCardNumbersInText(`pan ${[...CARD].join(", ")}.`)).toBe("pan 600649******0001.");
    // Lists of amounts and short groups are not cards.
    const amounts = "balances 10.00, 20.00, 30.00, 40.00; 1, 2, 3";
    expect(maskCardNumbersInText(amounts)).toBe(amounts);
  });

  it("masks a JSON body by its parsed value: \\u escapes decoded, the record reads as the masked value", () => {
    const escaped = [...CARD].map((digit) => `\\u003${digit}`).join("");
    const lastEscaped = `${CARD.slice(0, 15)}\\u0031`;
    for (const written of [escaped, lastEscaped]) {
      const body = `{"data":{"card_number":"${written}","entry_mode":"keyed"}}`;
      const shown = defaultRedactor.body(body) as string;
      expect(JSON.parse(shown)).toEqual({ data: { card_number: "600649******0001", entry_mode: "keyed" } });
      expect(shown.replace(/\D/g, "")).not.toContain(CARD.slice(0, 11));
    }
    // Without a card, the caller's text is kept as written.
    const plain = '{ "data": { "entry_mode": "keyed" } }';
    expect(defaultRedactor.body(plain)).toBe(plain);
  });

  it("masks escaped digits in text that is not valid JSON, and in duplicate keys JSON.parse drops", () => {
    const escaped = [...CARD].map((digit) => `\\u003${digit}`).join("");
    expect(defaultRedactor.body(`{"card_number":"${escaped}",`)).toBe('{"card_number":"600649******0001",');
    const duplicate = `{"card_number":"${escaped}","card_number":"x"}`;
    expect(String(defaultRedactor.body(duplicate)).replace(/\D/g, "")).not.toContain(CARD.slice(0, 11));
  });
});
