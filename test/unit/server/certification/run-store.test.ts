import { describe, expect, it } from "vitest";
import { InMemoryRunStore } from "@/lib/server/certification/run-store";
import { startCertification } from "@/lib/server/certification/runner";
import { PROFILE } from "./harness";
import { createCardApiClient } from "@/lib/server/card-api/client";
import { inProcessTransport } from "@/lib/server/card-api/transport";
import { createSandbox } from "@/lib/sandbox";

describe("a run as a route will start and follow it", () => {
  it("is in the store as running before it ends, and done with every case after", async () => {
    const sandbox = createSandbox();
    const store = new InMemoryRunStore();
    const { id, finished } = await startCertification({
      environment: {
        name: "embedded",
        authUrl: "http://sandbox.test",
        baseUrl: "http://sandbox.test",
        transport: "embedded",
        client: createCardApiClient({
          transport: inProcessTransport((request) => sandbox.handle(request)),
          authUrl: "http://sandbox.test",
          baseUrl: "http://sandbox.test",
          timeoutMs: 5000,
        }),
      },
      profile: PROFILE,
      operator: "alice",
      allowProductionGift: false,
      renewSkewSeconds: 120,
      maxExpiryWaitMs: 0,
      caseIds: ["BI-01", "GBI-01"],
      store,
    });
    const early = await store.get(id);
    expect(early?.status).toBe("running");
    expect(early?.operator).toBe("alice");
    await finished;
    const done = await store.get(id);
    expect(done?.status).toBe("done");
    expect(done?.results.map((result) => [result.id, result.verdict])).toEqual([
      ["GBI-01", "pass"],
      ["BI-01", "pass"],
    ]);
    expect(done?.done).toBe(2);
    expect((await store.list()).map((run) => run.id)).toEqual([id]);
  });

  it("refuses unknown case ids before starting", async () => {
    await expect(
      startCertification({
        environment: {} as never,
        profile: PROFILE,
        operator: "alice",
        allowProductionGift: false,
        renewSkewSeconds: 120,
        maxExpiryWaitMs: 0,
        caseIds: ["NOPE-1"],
        store: new InMemoryRunStore(),
      }),
    ).rejects.toThrow(/Unknown case id/);
  });
});
