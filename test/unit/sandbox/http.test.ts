import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, delay, errorResponse, isJsonContentType, readJsonBody } from "@/lib/sandbox/http";

describe("isJsonContentType", () => {
  it.each([
    ["application/json", true],
    ["application/json; charset=utf-8", true],
    ["Application/JSON;charset=UTF-8", true],
    ['application/json; charset="utf-8"', true],
    ["application/json; charset=iso-8859-1", false],
    ["application/vnd.api+json", false],
    ["text/json", false],
    ["text/plain", false],
    ["", false],
    [null, false],
  ])("%j → %s", (value, expected) => {
    expect(isJsonContentType(value)).toBe(expected);
  });
});

describe("readJsonBody", () => {
  const post = (body: BodyInit, contentType = "application/json") =>
    new Request("http://sandbox.test/", { method: "POST", headers: { "Content-Type": contentType }, body });

  it("parses a JSON body", async () => {
    expect(await readJsonBody(post('{"a":[1,"ü"]}'))).toEqual({ ok: true, value: { a: [1, "ü"] } });
  });

  it("answers 413 beyond the size limit, counting bytes of a streamed body", async () => {
    const big = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
      },
    });
    const request = new Request("http://sandbox.test/", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: big,
      duplex: "half",
    } as RequestInit & { duplex: "half" });
    const result = await readJsonBody(request);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.response.status).toBe(413);
  });

  it("accepts a body of exactly the limit", async () => {
    const body = `"${"x".repeat(MAX_BODY_BYTES - 2)}"`;
    expect((await readJsonBody(post(body))).ok).toBe(true);
  });
});

describe("errorResponse", () => {
  it("has the JSON:API error shape and extra headers", async () => {
    const response = errorResponse(429, "rate_limited", "Too many", "Later.", { "Retry-After": "2" });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("2");
    expect(await response.json()).toEqual({
      errors: [{ status: "429", code: "rate_limited", title: "Too many", detail: "Later." }],
    });
  });
});

describe("delay", () => {
  it("rejects as soon as its signal aborts", async () => {
    const aborter = new AbortController();
    const waiting = delay(600_000, aborter.signal);
    aborter.abort(new Error("gone"));
    await expect(waiting).rejects.toThrow("gone");
  });

  it("rejects at once when the signal is already aborted", async () => {
    await expect(delay(600_000, AbortSignal.abort(new Error("already")))).rejects.toThrow("already");
  });

  it("resolves after the delay otherwise", async () => {
    await expect(delay(1, new AbortController().signal)).resolves.toBeUndefined();
  });
});
