/**
 * Reading a Web `Request` body with a size bound. Framework-free: the console's route guards, its evidence
 * upload and the sandbox (embedded or standalone) all use it.
 */

/** The body's bytes, or null once it grows past `limit` bytes (reading stops there). */
export async function readBytesWithLimit(request: Request, limit: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array(0);
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return null;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The body as UTF-8 text, or null once it grows past `limit` bytes (reading stops there). */
export async function readTextWithLimit(request: Request, limit: number): Promise<string | null> {
  const bytes = await readBytesWithLimit(request, limit);
  return bytes && new TextDecoder("utf-8", { fatal: false }).decode(bytes);
}
