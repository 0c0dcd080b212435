import { describe, expect, it } from "vitest";
import { SERVER_HEAP_MB, serverNodeFlags } from "@/scripts/server-node-options.mjs";

describe("the server's Node options", () => {
  it("bound V8's old generation, which would otherwise be sized from the machine's memory", () => {
    expect(serverNodeFlags({})).toEqual([`--max-old-space-size=${SERVER_HEAP_MB}`]);
  });

  it("leave the size to NODE_OPTIONS when it names one", () => {
    expect(serverNodeFlags({ NODE_OPTIONS: "--enable-source-maps --max-old-space-size=1024" })).toEqual([]);
    expect(serverNodeFlags({ NODE_OPTIONS: "--enable-source-maps" })).toHaveLength(1);
  });
});
