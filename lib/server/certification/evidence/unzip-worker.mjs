// @ts-check
/**
 * Reads an uploaded zip off the request thread (a worker_threads Worker started by ./read-bundle.ts) and
 * within bounds: the entry count, each entry's declared and actual uncompressed size, and their totals are
 * checked before and while inflating, so a zip bomb costs at most the bounds. Nothing is ever inflated whole:
 * each entry streams through zlib into a SHA-256, and only the few small files the verifier reads are kept.
 *
 * Plain JavaScript with Node built-ins only: it runs as it is from the repository (tsx, vitest, `npm start`)
 * and from the standalone output (copied by next.config.js outputFileTracingIncludes), with no bundler.
 *
 * workerData: { zip: Uint8Array, limits: { maxEntries, maxEntryBytes, maxTotalBytes, maxKeptBytes }, keep: string[] }
 * Posts one message: { kind: "entries", entries: [{ name, size, sha256 }], kept: { [name]: Uint8Array } }
 *                 or { kind: "too_large" | "unreadable", message }.
 */
import { createHash } from "node:crypto";
import { parentPort, workerData } from "node:worker_threads";
import { createInflateRaw } from "node:zlib";

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const FEED_BYTES = 64 * 1024;

class Refusal extends Error {
  /** @param {"too_large" | "unreadable"} kind @param {string} message */
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

const unreadable = (/** @type {string} */ why) => new Refusal("unreadable", why);
const tooLarge = (/** @type {string} */ why) => new Refusal("too_large", why);

/** The end-of-central-directory record: where the entries are listed. */
function endOfDirectory(/** @type {DataView} */ view) {
  const last = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let at = view.byteLength - 22; at >= last; at -= 1) {
    if (view.getUint32(at, true) !== EOCD) continue;
    const count = view.getUint16(at + 10, true);
    const offset = view.getUint32(at + 16, true);
    if (count === 0xffff || offset === 0xffffffff)
      throw unreadable("ZIP64 archives are not evidence bundles");
    return { count, offset };
  }
  throw unreadable("no end of central directory");
}

/** The central directory's entries, their declared sizes checked against the bounds before any inflation. */
function listEntries(/** @type {Uint8Array} */ zip, limits) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const { count, offset } = endOfDirectory(view);
  if (count > limits.maxEntries) throw tooLarge(`${count} entries (at most ${limits.maxEntries})`);
  const names = new TextDecoder("utf-8", { fatal: false });
  const entries = [];
  let at = offset;
  let declaredTotal = 0;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > zip.byteLength || view.getUint32(at, true) !== CENTRAL)
      throw unreadable("bad central directory");
    const nameLength = view.getUint16(at + 28, true);
    const entry = {
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
      name: names.decode(zip.subarray(at + 46, at + 46 + nameLength)),
    };
    if (entry.size > limits.maxEntryBytes) {
      throw tooLarge(`${entry.name} declares ${entry.size} bytes (at most ${limits.maxEntryBytes} per file)`);
    }
    declaredTotal += entry.size;
    if (declaredTotal > limits.maxTotalBytes) {
      throw tooLarge(`the files declare more than ${limits.maxTotalBytes} bytes in all`);
    }
    entries.push(entry);
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return { view, entries };
}

/** An entry's compressed bytes, found through its local header. */
function compressedBytes(/** @type {Uint8Array} */ zip, /** @type {DataView} */ view, entry) {
  const at = entry.localOffset;
  if (at + 30 > zip.byteLength || view.getUint32(at, true) !== LOCAL)
    throw unreadable(`${entry.name}: bad local header`);
  if (entry.flags & 1) throw unreadable(`${entry.name} is encrypted`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > zip.byteLength) throw unreadable(`${entry.name} runs past the end of the archive`);
  return zip.subarray(start, end);
}

/**
 * Streams one entry through inflate into `sink`, stopping as soon as it produces more than it declared:
 * the declared size is already within the bounds, so the actual size is too.
 */
async function inflateEntry(
  /** @type {Uint8Array} */ data,
  entry,
  /** @type {(chunk: Uint8Array) => void} */ sink,
) {
  if (entry.method === 0) {
    if (data.byteLength !== entry.size)
      throw unreadable(`${entry.name}: stored size differs from its declared size`);
    sink(data);
    return;
  }
  if (entry.method !== 8)
    throw unreadable(`${entry.name}: compression method ${entry.method} is not deflate`);
  const inflater = createInflateRaw({ chunkSize: FEED_BYTES });
  // A stream that ends early (a damaged entry) never drains again: stop feeding when it closes.
  const writable = () =>
    new Promise((resolve) => {
      inflater.once("drain", resolve);
      inflater.once("close", resolve);
    });
  const feed = async () => {
    for (let at = 0; at < data.byteLength && !inflater.destroyed; at += FEED_BYTES) {
      if (!inflater.write(data.subarray(at, at + FEED_BYTES))) await writable();
    }
    if (!inflater.destroyed) inflater.end();
  };
  const feeding = feed();
  let produced = 0;
  try {
    for await (const chunk of inflater) {
      produced += chunk.byteLength;
      // Its data does not match its header: damaged or tampered, so not intact (never inflated further).
      if (produced > entry.size)
        throw unreadable(`${entry.name} inflates past the ${entry.size} bytes it declares`);
      sink(chunk);
    }
  } catch (error) {
    inflater.destroy();
    if (error instanceof Refusal) throw error;
    throw unreadable(`${entry.name} does not inflate`);
  }
  await feeding;
  if (produced !== entry.size)
    throw unreadable(`${entry.name}: inflated size differs from its declared size`);
}

async function readZip(/** @type {Uint8Array} */ zip, limits, /** @type {string[]} */ keep) {
  const { view, entries } = listEntries(zip, limits);
  const results = [];
  /** @type {Record<string, Uint8Array>} */
  const kept = Object.create(null);
  for (const entry of entries) {
    const hash = createHash("sha256");
    const keeping = keep.includes(entry.name) && !(entry.name in kept);
    if (keeping && entry.size > limits.maxKeptBytes)
      throw tooLarge(`${entry.name} is larger than ${limits.maxKeptBytes} bytes`);
    /** @type {Uint8Array[]} */
    const chunks = [];
    await inflateEntry(compressedBytes(zip, view, entry), entry, (chunk) => {
      hash.update(chunk);
      if (keeping) chunks.push(Uint8Array.from(chunk));
    });
    if (keeping) kept[entry.name] = Buffer.concat(chunks);
    results.push({ name: entry.name, size: entry.size, sha256: hash.digest("hex") });
  }
  return { kind: "entries", entries: results, kept };
}

const { zip, limits, keep } = workerData;
readZip(zip, limits, keep).then(
  (result) => parentPort?.postMessage(result),
  (error) =>
    parentPort?.postMessage(
      error instanceof Refusal
        ? { kind: error.kind, message: error.message }
        : { kind: "unreadable", message: error instanceof Error ? error.message : String(error) },
    ),
);
