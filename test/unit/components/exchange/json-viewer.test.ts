import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { JsonViewer } from "@/components/exchange/json-viewer";

/** The viewer's visible text, tags dropped and entities decoded. */
function visibleText(value: unknown): string {
  const html = renderToString(createElement(JsonViewer, { value, label: "Response body" }));
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");
}

describe("the JSON viewer", () => {
  it("shows an array as JSON: its items without indices", () => {
    const text = visibleText({ errors: [{ code: "a" }, { code: "b" }], tags: ["x", "y"] });
    expect(text).toContain('"tags": ["x","y"]');
    expect(text).not.toMatch(/\b[01]: /);
  });
});
