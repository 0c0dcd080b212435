/**
 * POST /api/certification/verify against the production build with hostile and large uploads: bounds
 * refuse with 413 bundle_too_large in the one error shape, the server keeps answering other requests while a
 * large bundle is read (in a worker), a 15 MB upload arrives whole (Next's proxy body buffer no longer cuts
 * it at 10 MB), and a body past 20 MiB is 413 with or without Content-Length.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { VerifyResponse } from "@/lib/shared/certification-api";
import { sharedConsole, type ConsoleServer } from "../../support/console-server";
import { declaredHugeZip, entriesOf, writeZip, zipBomb } from "../../support/hostile-zips";
import { oneCaseRunBundle } from "@/test/support/certification-runs";
import { ConsoleClient } from "@/test/support/http-client";

interface ErrorShape {
  error: { code: string; message: string };
}

let server: ConsoleServer;

// Each upload is answered on its own: the run's shared console will do.
beforeAll(async () => {
  server = await sharedConsole();
}, 120_000);

function upload(bytes: Uint8Array | ReadableStream<Uint8Array>): Promise<Response> {
  return fetch(`${server.url}/api/certification/verify`, {
    method: "POST",
    headers: { "content-type": "application/zip", origin: server.url },
    body: bytes,
    // A stream goes out chunked, without Content-Length.
    ...(bytes instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

async function answer<T>(response: Response): Promise<{ status: number; body: T }> {
  return { status: response.status, body: (await response.json()) as T };
}

/** A real bundle of a short embedded run, as its entries. */
async function realBundleEntries() {
  return entriesOf(await oneCaseRunBundle(new ConsoleClient(server.url)));
}

describe("POST /api/certification/verify with hostile and large uploads", () => {
  it("refuses 300 entries declaring 3 GiB each and zip bombs with 413 bundle_too_large", async () => {
    for (const zip of [declaredHugeZip(300), zipBomb({ mib: 65 })]) {
      const { status, body } = await answer<ErrorShape>(await upload(zip));
      expect(status).toBe(413);
      expect(body.error.code).toBe("bundle_too_large");
      expect(body.error.message).toMatch(/refused unread past a bound/);
    }
    // One that lies about its size is stopped at the size it declares, and is not intact.
    const lying = await answer<VerifyResponse>(await upload(zipBomb({ mib: 40, lie: true })));
    expect(lying.status).toBe(200);
    expect(lying.body.ok).toBe(false);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it("answers /api/health while a large bundle is being read", async () => {
    // Within the bounds, but 240 MiB to inflate and hash: the worker is busy well after the upload arrived.
    const large = zipBomb({ mib: 60, entries: 4 });
    const order: string[] = [];
    const verifying = upload(large).then(async (response) => {
      order.push("verify");
      return answer<VerifyResponse>(response);
    });
    const health = await fetch(`${server.url}/api/health`);
    order.push("health");
    expect(health.status).toBe(200);
    const verified = await verifying;
    expect(verified.status).toBe(200);
    expect(verified.body.ok).toBe(false);
    expect(verified.body.problems).toContain("manifest.json is missing.");
    expect(order).toEqual(["health", "verify"]);
  });

  it("reads a 15 MB upload whole: a padded bundle is not intact, but not unreadable", async () => {
    const entries = await realBundleEntries();
    const padded = writeZip([
      ...entries,
      { name: "padding.bin", bytes: randomBytes(15_000_000), stored: true },
    ]);
    expect(padded.byteLength).toBeGreaterThan(15_000_000);
    const { status, body } = await answer<VerifyResponse>(await upload(padded));
    expect(status).toBe(200);
    expect(body.problems).toEqual(["padding.bin is not listed in the manifest (added after signing)."]);
    const intact = await answer<VerifyResponse>(await upload(writeZip(entries)));
    expect(intact.body).toMatchObject({ ok: true, signed_by_this_console: true });
  });

  it("answers 413 past 20 MiB, with Content-Length and chunked", async () => {
    const big = new Uint8Array(20 * 1024 * 1024 + 1);
    const declared = await answer<ErrorShape>(await upload(big));
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe("payload_too_large");
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 30) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const chunked = await answer<ErrorShape>(await upload(stream));
    expect(chunked.status).toBe(413);
    expect(chunked.body.error.code).toBe("payload_too_large");
  });
});
