/**
 * The XLSX file's package: a ZIP archive of deflated parts (`xlsxWriter.ts` writes the parts). In Node the parts are
 * deflated by zlib directly; in a browser by its `CompressionStream`, whose gzip trailer gives each part's CRC-32.
 */

type Zlib = Pick<typeof import('node:zlib'), 'deflateRawSync' | 'crc32'>;

/** Node's zlib where the writer runs in Node (with `crc32`: Node 20.15 and later); undefined in a browser. */
export function nodeZlib(): Zlib | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const zlib = process?.getBuiltinModule?.('node:zlib') as Partial<Zlib> | undefined;
  return zlib?.deflateRawSync && zlib.crc32 ? (zlib as Zlib) : undefined;
}

/** The data deflated raw by zlib at its fastest level, with its CRC-32. */
export function deflateZlib(zlib: Zlib, data: Uint8Array): { deflated: Uint8Array; crc: number } {
  return { deflated: zlib.deflateRawSync(data, { level: 1 }), crc: zlib.crc32(data) >>> 0 };
}

/** gzip's header flags (RFC 1952): extra field, file name, comment, header CRC. */
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;
const FHCRC = 2;

/**
 * The data deflated raw, with its CRC-32. A gzip stream (RFC 1952) is the raw deflate stream between a header and a
 * trailer that holds the data's CRC-32 and size, so the platform's zlib computes both in one pass over the data.
 */
export async function deflateStream(data: Uint8Array): Promise<{ deflated: Uint8Array; crc: number }> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  const gz = new Uint8Array(await new Response(stream).arrayBuffer());
  const flags = gz[3] ?? 0;
  let at = 10;
  if (flags & FEXTRA) at += 2 + ((gz[at] ?? 0) | ((gz[at + 1] ?? 0) << 8));
  if (flags & FNAME) while (gz[at++] !== 0 && at < gz.length);
  if (flags & FCOMMENT) while (gz[at++] !== 0 && at < gz.length);
  if (flags & FHCRC) at += 2;
  const end = gz.length - 8;
  const trailer = new DataView(gz.buffer, gz.byteOffset + end, 8);
  if (gz[0] !== 0x1f || gz[1] !== 0x8b || at > end || trailer.getUint32(4, true) !== data.length % 2 ** 32) {
    throw new Error('the platform wrote a gzip stream this writer cannot read');
  }
  return { deflated: gz.subarray(at, end), crc: trailer.getUint32(0, true) };
}

export interface ZipEntry {
  path: Uint8Array;
  /** The uncompressed size. */
  size: number;
  crc: number;
  deflated: Uint8Array;
}

/**
 * The fields a local file header and its central directory entry share, from `at` on (6 in the first, 8 in the
 * second): version needed, flags (UTF-8 names), method (deflate), time, date, CRC, both sizes and the name's length.
 */
function sharedFields(view: DataView, at: number, file: ZipEntry): void {
  // 1980-01-01 00:00, the earliest DOS time: the bytes do not depend on the clock.
  const time = 0;
  const date = (0 << 9) | (1 << 5) | 1;
  view.setUint16(at - 2, 20, true);
  view.setUint16(at, 0x0800, true);
  view.setUint16(at + 2, 8, true);
  view.setUint16(at + 4, time, true);
  view.setUint16(at + 6, date, true);
  view.setUint32(at + 8, file.crc, true);
  view.setUint32(at + 12, file.deflated.length, true);
  view.setUint32(at + 16, file.size, true);
  view.setUint16(at + 20, file.path.length, true);
}

/** A ZIP archive of deflated entries (no ZIP64: an export stays far below 4 GB). */
export function zip(files: ZipEntry[]): Uint8Array {
  const local: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const file of files) {
    const head = new DataView(new ArrayBuffer(30));
    head.setUint32(0, 0x04034b50, true);
    sharedFields(head, 6, file);
    local.push(new Uint8Array(head.buffer), file.path, file.deflated);
    const entry = new DataView(new ArrayBuffer(46));
    entry.setUint32(0, 0x02014b50, true);
    // Made by: version 2.0.
    entry.setUint16(4, 20, true);
    sharedFields(entry, 8, file);
    entry.setUint32(42, offset, true);
    central.push(new Uint8Array(entry.buffer), file.path);
    offset += 30 + file.path.length + file.deflated.length;
  }
  const centralSize = central.reduce((n, part) => n + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, files.length, true);
  end.setUint16(10, files.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  const all = [...local, ...central, new Uint8Array(end.buffer)];
  const out = new Uint8Array(all.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of all) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
