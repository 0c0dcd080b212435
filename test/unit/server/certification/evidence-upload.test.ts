/**
 * The evidence upload reads the bundle through the one bounded body reader (lib/shared/body.ts): the bytes as
 * sent, 413 past the bound whether or not Content-Length says so, 400 for no body.
 */
import { describe, expect, it } from "vitest";
import { readUploadedBundle } from "@/lib/server/certification/upload";
import { ApiError } from "@/lib/server/util/errors";

/** A POST whose body arrives in chunks, without Content-Length (as a chunked upload does). */
function streamed(chunks: Uint8Array[]): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Request("http://localhost/upload", { method: "POST", body, duplex: "half" } as RequestInit);
}

async function refusal(request: Request, limit?: number): Promise<string> {
  const error = await readUploadedBundle(request, limit).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(ApiError);
  return (error as ApiError).code;
}

describe("an uploaded evidence bundle", () => {
  it("is read whole, chunk after chunk", async () => {
    const bytes = await readUploadedBundle(streamed([new Uint8Array([1, 2]), new Uint8Array([3])]), 8);
    expect([...bytes]).toEqual([1, 2, 3]);
  });

  it("is refused past the bound, whether Content-Length says so or not", async () => {
    expect(await refusal(streamed([new Uint8Array(6), new Uint8Array(6)]), 8)).toBe("payload_too_large");
    const declared = new Request("http://localhost/upload", { method: "POST", body: new Uint8Array(9) });
    expect(await refusal(declared, 8)).toBe("payload_too_large");
  });

  it("is asked for when there is none", async () => {
    expect(await refusal(new Request("http://localhost/upload", { method: "POST" }))).toBe("bad_request");
    expect(await refusal(streamed([]))).toBe("bad_request");
  });
});
