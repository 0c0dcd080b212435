/** Reads an uploaded evidence bundle with a size bound: 413 in the console's error shape past it. */
import "server-only";
import { readBytesWithLimit } from "@/lib/shared/body";
import { MAX_BUNDLE_BYTES } from "@/lib/shared/certification-api";
import { ApiError } from "@/lib/server/util/errors";

export async function readUploadedBundle(request: Request, limit = MAX_BUNDLE_BYTES): Promise<Uint8Array> {
  let bytes: Uint8Array | null;
  try {
    bytes = await readBytesWithLimit(request, limit);
  } catch {
    throw new ApiError("request_aborted", "The client closed the connection before the whole body arrived.");
  }
  if (!bytes) {
    throw new ApiError(
      "payload_too_large",
      `The bundle is larger than ${MAX_BUNDLE_BYTES / (1024 * 1024)} MiB; an evidence bundle is far smaller.`,
    );
  }
  if (bytes.byteLength === 0)
    throw new ApiError("bad_request", "Send the bundle (.zip) as the request body.");
  return bytes;
}
