/** Reads an uploaded evidence bundle with a size bound: 413 in the console's error shape past it. */
import "server-only";
import { ApiError } from "@/lib/server/util/errors";
import { MAX_BUNDLE_BYTES } from "@/lib/shared/certification-api";

function tooLarge(): ApiError {
  return new ApiError(
    "payload_too_large",
    `The bundle is larger than ${MAX_BUNDLE_BYTES / (1024 * 1024)} MiB; an evidence bundle is far smaller.`,
  );
}

export async function readUploadedBundle(request: Request, limit = MAX_BUNDLE_BYTES): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!request.body) throw new ApiError("bad_request", "Send the bundle (.zip) as the request body.");
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError("request_aborted", "The client closed the connection before the whole body arrived.");
  }
  if (size === 0) throw new ApiError("bad_request", "Send the bundle (.zip) as the request body.");
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
