import { describe, expect, it } from "vitest";
import { checkSource } from "@/scripts/check-source.mjs";

const statements = (count: number) =>
  Array.from({ length: count }, (_, index) => `  const value${index} = ${index};`).join("\n");

const functionOf = (bodyLines: number) => `export function tooLong() {\n${statements(bodyLines)}\n}\n`;

const component = (jsxRows: number) => `export function Page({ rows }: { rows: string[] }) {
  const first = rows[0];
  // Why the list is shown at all: a comment, not code.

  return (
    <ul>
${Array.from({ length: jsxRows }, (_, index) => `      <li key="${index}">{first}</li>`).join("\n")}
    </ul>
  );
}
`;

describe("check-source: function length", () => {
  it("reports a function of 61 lines", () => {
    // The declaration line, 59 statements and the closing brace.
    const findings = checkSource("long.ts", functionOf(59));
    expect(findings).toEqual([{ kind: "function", line: 1, name: "tooLong", lines: 61 }]);
  });

  it("accepts a function of exactly 60 lines", () => {
    expect(checkSource("fits.ts", functionOf(58))).toEqual([]);
  });

  it("does not count blank and comment lines", () => {
    const padded = `export function padded() {\n${statements(55)}\n\n\n// one\n/* two\n   three */\n${statements(3)}\n}\n`;
    expect(checkSource("padded.ts", padded)).toEqual([]);
  });

  it("does not count JSDoc inside a function", () => {
    const documented = `export function documented() {\n${statements(50)}\n  /**\n${"   * why\n".repeat(20)}   */\n  const last = 1;\n  return last;\n}\n`;
    expect(checkSource("documented.ts", documented)).toEqual([]);
  });

  it("does not count the lines of JSX in a component of 200 lines", () => {
    const source = component(195);
    expect(source.split("\n").length).toBeGreaterThan(200);
    expect(checkSource("page.tsx", source)).toEqual([]);
  });

  it("counts a nested function's lines within its parent", () => {
    const nested = `export function outer() {\n${statements(30)}\n  const inner = () => {\n${statements(30)}\n  };\n  return inner;\n}\n`;
    const findings = checkSource("nested.ts", nested);
    expect(findings.map((finding) => finding.name)).toEqual(["outer"]);
  });
});

describe("check-source: ticket citations", () => {
  it("reports a comment that cites an issue and an item", () => {
    const findings = checkSource("cites.ts", "const a = 1;\n// see issue 8 item 10\nconst b = 2;\n");
    expect(findings).toEqual([{ kind: "comment", line: 2, name: '"issue 8"' }]);
  });

  it("accepts ordinary words", () => {
    const source = "/** Returns an item of the list; an issue is raised when it is empty. */\nconst a = 1;\n";
    expect(checkSource("plain.ts", source)).toEqual([]);
  });

  it("accepts a pointer into the API spec and a card number in an example", () => {
    const source =
      '// API specification §4.3 item 3\n// masks "ticket 6006491000000001 2024"\nconst a = 1;\n';
    expect(checkSource("spec.ts", source)).toEqual([]);
  });

  it("reports a test title that cites items", () => {
    const source = 'describe("sealing (items 4, 5)", () => {\n  it("keeps the session", () => {});\n});\n';
    const findings = checkSource("rules.test.ts", source, { titles: true });
    expect(findings).toEqual([{ kind: "title", line: 1, name: '"items 4, 5"' }]);
  });

  it("reads no comment into JSX text", () => {
    const source = "export const A = () => (\n  <p>\n    // ticket 12 is text here\n  </p>\n);\n";
    expect(checkSource("text.tsx", source)).toEqual([]);
  });

  it("finds a comment inside JSX", () => {
    const source = "export const A = () => (\n  <div>\n    {/* ticket 12 */}\n    don't\n  </div>\n);\n";
    expect(checkSource("a.tsx", source)).toEqual([{ kind: "comment", line: 3, name: '"ticket 12"' }]);
  });
});
