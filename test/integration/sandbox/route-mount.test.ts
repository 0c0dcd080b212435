/** The console's /sandbox/[...path] route module: on/off switch and the real embedded singleton. */
import { afterEach, describe, expect, it, vi } from "vitest";
import * as route from "@/app/sandbox/[...path]/route";
import { setEmbeddedSandboxForTests } from "@/lib/server/root";
const tokenRequest = () =>
  new Request("http://localhost:3000/sandbox/reporting/v1/auth/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_id: "demo-client",
      client_secret: "demo-secret",
      grant_type: "client_credentials",
    }),
  });

afterEach(() => {
  vi.unstubAllEnvs();
  setEmbeddedSandboxForTests(undefined);
});

describe("app/sandbox/[...path]/route", () => {
  it("is dynamic and exports every method", () => {
    expect(route.dynamic).toBe("force-dynamic");
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const) {
      expect(typeof route[method]).toBe("function");
    }
  });

  it("serves the embedded sandbox by default", async () => {
    const response = await route.POST(tokenRequest());
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { type: string } }).data.type).toBe("oauth-token");
  });

  it.each(["off", "OFF"])(
    "answers 404 in the JSON:API error shape when EMBEDDED_SANDBOX=%s",
    async (value) => {
      vi.stubEnv("EMBEDDED_SANDBOX", value);
      for (const response of [
        await route.POST(tokenRequest()),
        await route.GET(
          new Request("http://localhost:3000/sandbox/transaction/v1/transactions/request-id/x"),
        ),
      ]) {
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({
          errors: [
            { status: "404", code: "sandbox_disabled", title: "Not found", detail: expect.any(String) },
          ],
        });
      }
    },
  );

  it("answers 404 to paths outside the sandbox's operations", async () => {
    const response = await route.PUT(
      new Request("http://localhost:3000/sandbox/anything", { method: "PUT" }),
    );
    expect(response.status).toBe(404);
  });
});
