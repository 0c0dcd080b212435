/**
 * Zips no ordinary zip library writes, for the evidence reader's tests: entries whose declared sizes lie,
 * duplicate names, zip bombs. A minimal writer (local headers, central directory, end record) gives each
 * entry exactly the name, bytes and declared size the test asks for.
 */
import { crc32, deflateRawSync } from "node:zlib";
import { unzipSync } from "fflate";

export interface RawEntry {
  name: string;
  /** The uncompressed content. */
  bytes: Uint8Array;
  /** The size written in the headers; the real one when absent. */
  declaredSize?: number;
  /** Stored (0) instead of deflated (8). */
  stored?: boolean;
}

function header(size: number, fields: [number, number][]): Buffer {
  const buffer = Buffer.alloc(size);
  let offset = 0;
  for (const [value, width] of fields) {
    if (width === 4) buffer.writeUInt32LE(value >>> 0, offset);
    else buffer.writeUInt16LE(value, offset);
    offset += width;
  }
  return buffer;
}

export function writeZip(entries: RawEntry[]): Uint8Array<ArrayBuffer> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const data = entry.stored ? Buffer.from(entry.bytes) : deflateRawSync(entry.bytes);
    const method = entry.stored ? 0 : 8;
    const crc = crc32(entry.bytes);
    const size = entry.declaredSize ?? entry.bytes.byteLength;
    // Version, flags (UTF-8 names), method, time, date, CRC-32, sizes, name and extra lengths.
    // prettier-ignore
    const common: [number, number][] = [
      [20, 2], [0x800, 2], [method, 2], [0, 2], [0x21, 2], [crc, 4], [data.byteLength, 4], [size, 4], [name.byteLength, 2], [0, 2],
    ];
    const local = Buffer.concat([header(30, [[0x04034b50, 4], ...common]), name, data]);
    // prettier-ignore
    const central = header(46, [[0x02014b50, 4], [20, 2], ...common, [0, 2], [0, 2], [0, 2], [0, 4], [offset, 4]]);
    locals.push(local);
    centrals.push(Buffer.concat([central, name]));
    offset += local.byteLength;
  }
  const directory = Buffer.concat(centrals);
  // prettier-ignore
  const end = header(22, [[0x06054b50, 4], [0, 2], [0, 2], [entries.length, 2], [entries.length, 2], [directory.byteLength, 4], [offset, 4], [0, 2]]);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** Every entry of an ordinary zip, as raw entries to extend or change. */
export function entriesOf(zip: Uint8Array): RawEntry[] {
  return Object.entries(unzipSync(zip)).map(([name, bytes]) => ({ name, bytes }));
}

/** `count` tiny entries that each declare `declared` bytes (a few KiB of zip claiming terabytes). */
export function declaredHugeZip(count = 300, declared = 3 * 1024 ** 3): Uint8Array<ArrayBuffer> {
  return writeZip(
    Array.from({ length: count }, (_, index) => ({
      name: `exchanges/${index}.json`,
      bytes: new Uint8Array([123, 125]),
      declaredSize: declared,
    })),
  );
}

/** A zip bomb: `entries` files of `mib` MiB of zeros each, sizes declared truthfully unless `lie`. */
export function zipBomb(options: { mib: number; entries?: number; lie?: boolean }): Uint8Array<ArrayBuffer> {
  const zeros = new Uint8Array(options.mib * 1024 * 1024);
  return writeZip(
    Array.from({ length: options.entries ?? 1 }, (_, index) => ({
      name: `bomb-${index}.bin`,
      bytes: zeros,
      ...(options.lie ? { declaredSize: 1024 } : {}),
    })),
  );
}
