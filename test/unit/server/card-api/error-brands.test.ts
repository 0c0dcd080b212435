/**
 * Next may evaluate a module once per bundle, so an error thrown by a process-wide singleton (token broker,
 * card API client) made in one bundle is an instance of another bundle's copy of its class. The console must
 * still recognise it: otherwise a timeout becomes a 500 instead of a 504.
 */
import { describe, expect, it, vi } from "vitest";

async function freshCopies() {
  vi.resetModules();
  const errors = await import("@/lib/server/util/errors");
  const transport = await import("@/lib/server/card-api/transport");
  return { ApiError: errors.ApiError, UpstreamFailure: transport.UpstreamFailure };
}

describe("error classes across module copies", () => {
  it("recognises an ApiError made by another copy of the module", async () => {
    const first = await freshCopies();
    const second = await freshCopies();
    expect(first.ApiError).not.toBe(second.ApiError);
    const error = new second.ApiError("upstream_timeout", "timed out");
    expect(error instanceof first.ApiError).toBe(true);
    expect(error.toResponse().status).toBe(504);
  });

  it("recognises an UpstreamFailure made by another copy of the module", async () => {
    const first = await freshCopies();
    const second = await freshCopies();
    const failure = new second.UpstreamFailure("timeout", undefined, "timed out");
    expect(failure instanceof first.UpstreamFailure).toBe(true);
    expect(first.UpstreamFailure).not.toBe(second.UpstreamFailure);
  });

  it("does not take other errors for them", async () => {
    const { ApiError, UpstreamFailure } = await freshCopies();
    for (const value of [new Error("x"), null, undefined, "ApiError", { name: "ApiError", code: "x" }]) {
      expect(value instanceof ApiError).toBe(false);
      expect(value instanceof UpstreamFailure).toBe(false);
    }
    expect(new ApiError("not_found", "x") instanceof UpstreamFailure).toBe(false);
  });
});
