/** The exchange view labels a request body by what it is: the request editor's JSON text is JSON. */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { requestBodyView } from "@/lib/client/request-body-view";
import { JsonViewer } from "@/components/exchange/json-viewer";

const label = (body: unknown) =>
  renderToStaticMarkup(createElement(JsonViewer, { label: "Request body", ...requestBodyView(body) }));

describe("a request body in the exchange view", () => {
  it("shows text that is JSON as JSON", () => {
    const text = '{"data":{"card_number":"600649******0001","location_id":"demo"}}';
    expect(requestBodyView(text)).toEqual({
      value: { data: { card_number: "600649******0001", location_id: "demo" } },
      isText: false,
    });
    expect(label(text)).not.toContain("Text (not JSON)");
    expect(label(text)).toContain(">JSON<");
  });

  it("keeps text that is not JSON as text, and says so", () => {
    expect(requestBodyView("{ not json")).toEqual({ value: "{ not json", isText: true });
    expect(label("{ not json")).toContain("Text (not JSON)");
  });

  it("shows a parsed body as it is", () => {
    expect(requestBodyView({ data: {} })).toEqual({ value: { data: {} }, isText: false });
  });
});
