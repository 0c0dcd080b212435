import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { onDemand } from "@/lib/client/on-demand";

describe("onDemand", () => {
  it("fetches the module once however often it is asked for", async () => {
    const importModule = vi.fn(() => Promise.resolve({ answer: 42 }));
    const unit = onDemand(importModule);
    await Promise.all([unit.load(), unit.load()]);
    await unit.load();
    expect(importModule).toHaveBeenCalledTimes(1);
  });

  it("tries a failed fetch again on the next request", async () => {
    const importModule = vi
      .fn<() => Promise<{ answer: number }>>()
      .mockRejectedValueOnce(new Error("chunk failed to load"))
      .mockResolvedValueOnce({ answer: 42 });
    const unit = onDemand(importModule);
    await unit.load();
    await unit.load();
    expect(importModule).toHaveBeenCalledTimes(2);
  });

  it("renders nothing of the module on the server, so hydration matches", async () => {
    const unit = onDemand(() => Promise.resolve({ label: "loaded" }));
    await unit.load();
    function Probe() {
      return createElement("p", null, unit.useModule()?.label ?? "not yet");
    }
    expect(renderToString(createElement(Probe))).toBe("<p>not yet</p>");
  });
});
