import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Panel } from "@/components/ui/panel";

const render = (props: Parameters<typeof Panel>[0]) => renderToStaticMarkup(createElement(Panel, props));

describe("Panel", () => {
  it("pads its body by default", () => {
    expect(render({ children: "x" })).toContain('<div class="px-5 py-4">x</div>');
  });

  // Both paddings are single utilities of one property, so the default one, emitted later, would win.
  it("lets a body class replace the default padding instead of competing with it", () => {
    const html = render({ bodyClassName: "px-0 py-0", children: "x" });
    expect(html).toContain('<div class="px-0 py-0">x</div>');
    expect(html).not.toContain("px-5");
  });

  it("puts a flush panel's children on the surface itself", () => {
    const html = render({ flush: true, as: "div", "aria-busy": true, children: "x" });
    expect(html).toBe(
      '<div aria-busy="true" class="rounded-xl border border-default bg-panel shadow-sm">x</div>',
    );
  });

  it("names a section by its title, unless told otherwise", () => {
    expect(render({ title: "T", titleId: "t" })).toContain('aria-labelledby="t"');
    expect(render({ "aria-labelledby": "h", flush: true })).toContain('aria-labelledby="h"');
  });
});
