/**
 * Build contexts compressed the three ways POST /build accepts (spec/2 §4.1): gzip, bzip2 and xz.
 * Node ships gzip only, and these contexts are a few kilobytes, so the other two are written here in
 * their simplest valid form rather than pulled in as dependencies: xz with LZMA2's uncompressed
 * chunks, and bzip2 as one block with a single Huffman table (used twice: the format asks for two).
 * A decoder accepts both as any other file of its format.
 */
import zlib from 'node:zlib';

export type Compression = 'gzip' | 'bzip2' | 'xz';

export function compress(data: Buffer, how: Compression): Buffer {
  if (how === 'gzip') return zlib.gzipSync(data);
  if (how === 'bzip2') return bzip2(data);
  return xz(data);
}

// ---- xz: one block of LZMA2 uncompressed chunks, CRC32 check ----

const XZ_MAGIC = Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);
const XZ_FOOTER_MAGIC = Buffer.from([0x59, 0x5a]);
/** Stream flags: check type 1, CRC32. */
const XZ_FLAGS = Buffer.from([0x00, 0x01]);
/** The most an LZMA2 uncompressed chunk holds. */
const LZMA2_CHUNK = 0x10000;

function crc32le(data: Buffer): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32LE(zlib.crc32(data));
  return out;
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

function padTo4(length: number): Buffer {
  return Buffer.alloc((4 - (length % 4)) % 4);
}

function xz(data: Buffer): Buffer {
  // Block header: size, flags (one filter, no sizes), LZMA2 filter (id 0x21, 1 property byte: the
  // smallest dictionary), padding, CRC32.
  const headerFields = Buffer.from([0x00, 0x21, 0x01, 0x00]);
  const headerLength = 1 + headerFields.length + padTo4(1 + headerFields.length).length + 4;
  const headerBody = Buffer.concat([Buffer.from([headerLength / 4 - 1]), headerFields, padTo4(1 + headerFields.length)]);
  const blockHeader = Buffer.concat([headerBody, crc32le(headerBody)]);

  const chunks: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += LZMA2_CHUNK) {
    const chunk = data.subarray(offset, offset + LZMA2_CHUNK);
    // 1: uncompressed with a dictionary reset (the first chunk), 2: uncompressed, no reset.
    const control = Buffer.from([offset === 0 ? 0x01 : 0x02, (chunk.length - 1) >> 8, (chunk.length - 1) & 0xff]);
    chunks.push(control, chunk);
  }
  chunks.push(Buffer.from([0x00]));
  const compressed = Buffer.concat(chunks);
  const block = Buffer.concat([blockHeader, compressed, padTo4(compressed.length), crc32le(data)]);

  const unpaddedSize = blockHeader.length + compressed.length + 4;
  const indexFields = Buffer.concat([Buffer.from([0x00]), varint(1), varint(unpaddedSize), varint(data.length)]);
  const indexBody = Buffer.concat([indexFields, padTo4(indexFields.length)]);
  const index = Buffer.concat([indexBody, crc32le(indexBody)]);

  const backwardSize = Buffer.alloc(4);
  backwardSize.writeUInt32LE(index.length / 4 - 1);
  const footerFields = Buffer.concat([backwardSize, XZ_FLAGS]);
  const streamHeader = Buffer.concat([XZ_MAGIC, XZ_FLAGS, crc32le(XZ_FLAGS)]);
  return Buffer.concat([streamHeader, block, index, crc32le(footerFields), footerFields, XZ_FOOTER_MAGIC]);
}

// ---- bzip2: one block; run-length, Burrows-Wheeler, move-to-front, Huffman ----

/** Level 9: a block holds up to 900 000 bytes after the first run-length step. */
const BZIP2_BLOCK_LIMIT = 900_000 - 19;
const SYMBOLS_PER_SELECTOR = 50;
const MAX_CODE_LENGTH = 17;

class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;

  write(bitCount: number, value: number): void {
    for (let bit = bitCount - 1; bit >= 0; bit--) {
      this.current = (this.current << 1) | (Math.floor(value / 2 ** bit) & 1);
      if (++this.used === 8) {
        this.bytes.push(this.current);
        this.current = 0;
        this.used = 0;
      }
    }
  }

  finish(): Buffer {
    if (this.used > 0) this.write(8 - this.used, 0);
    return Buffer.from(this.bytes);
  }
}

/** bzip2's CRC: CRC-32 with polynomial 0x04c11db7, most significant bit first. */
function bzip2Crc(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return ~crc >>> 0;
}

/** The first step: runs of 4 to 255 equal bytes become 4 bytes and a count of the rest. */
function initialRunLength(data: Buffer): Buffer {
  const out: number[] = [];
  let index = 0;
  while (index < data.length) {
    const byte = data[index] as number;
    let run = 1;
    while (index + run < data.length && data[index + run] === byte && run < 255) run++;
    if (run >= 4) out.push(byte, byte, byte, byte, run - 4);
    else for (let copy = 0; copy < run; copy++) out.push(byte);
    index += run;
  }
  return Buffer.from(out);
}

/** The rotations of `data` in sorted order (start offsets), by prefix doubling. */
function sortedRotations(data: Buffer): number[] {
  const length = data.length;
  let rank = Array.from(data);
  let order = Array.from({ length }, (_, index) => index);
  for (let width = 1; ; width *= 2) {
    const key = (index: number): [number, number] => [rank[index] as number, rank[(index + width) % length] as number];
    order.sort((a, b) => {
      const [a1, a2] = key(a);
      const [b1, b2] = key(b);
      return a1 - b1 || a2 - b2;
    });
    const next = new Array<number>(length);
    let classes = 0;
    order.forEach((start, position) => {
      const previous = order[position - 1];
      if (position > 0 && previous !== undefined) {
        const [p1, p2] = key(previous);
        const [s1, s2] = key(start);
        if (p1 !== s1 || p2 !== s2) classes++;
      }
      next[start] = classes;
    });
    rank = next;
    if (classes === length - 1 || width >= length) return order;
    order = [...order];
  }
}

/** Huffman code lengths for `frequencies`, none longer than MAX_CODE_LENGTH. */
function codeLengths(frequencies: number[]): number[] {
  let weights = frequencies.map((frequency) => frequency + 1);
  for (;;) {
    const lengths = new Array<number>(weights.length).fill(0);
    let nodes = weights.map((weight, symbol) => ({ weight, symbols: [symbol] }));
    while (nodes.length > 1) {
      nodes.sort((a, b) => a.weight - b.weight);
      const [first, second, ...rest] = nodes;
      if (!first || !second) break;
      for (const symbol of [...first.symbols, ...second.symbols]) lengths[symbol] = (lengths[symbol] as number) + 1;
      nodes = [...rest, { weight: first.weight + second.weight, symbols: [...first.symbols, ...second.symbols] }];
    }
    if (Math.max(...lengths) <= MAX_CODE_LENGTH) return lengths;
    // Flatter weights give shorter longest codes, as bzip2 itself does.
    weights = weights.map((weight) => 1 + Math.floor(weight / 2));
  }
}

/** Canonical codes for the lengths: by length, then by symbol. */
function canonicalCodes(lengths: number[]): number[] {
  const codes = new Array<number>(lengths.length).fill(0);
  let next = 0;
  for (let length = 1; length <= MAX_CODE_LENGTH; length++) {
    lengths.forEach((symbolLength, symbol) => {
      if (symbolLength === length) codes[symbol] = next++;
    });
    next *= 2;
  }
  return codes;
}

/** Move-to-front of the transformed block with runs of zeros as RUNA/RUNB, and the end-of-block symbol. */
function moveToFront(lastColumn: number[], inUse: number[]): { symbols: number[]; alphabetSize: number } {
  const order = [...inUse];
  const symbols: number[] = [];
  let zeros = 0;
  const flushZeros = () => {
    // Bijective base 2, least significant digit first: RUNA (0) is 1, RUNB (1) is 2.
    let pending = zeros - 1;
    while (zeros > 0) {
      symbols.push(pending & 1);
      if (pending < 2) break;
      pending = (pending - 2) >> 1;
    }
    zeros = 0;
  };
  for (const byte of lastColumn) {
    const position = order.indexOf(byte);
    if (position === 0) {
      zeros++;
      continue;
    }
    flushZeros();
    symbols.push(position + 1);
    order.splice(position, 1);
    order.unshift(byte);
  }
  flushZeros();
  symbols.push(inUse.length + 1);
  return { symbols, alphabetSize: inUse.length + 2 };
}

function bzip2(data: Buffer): Buffer {
  const out = new BitWriter();
  out.write(8, 0x42);
  out.write(8, 0x5a);
  out.write(8, 0x68);
  out.write(8, 0x39);
  const crc = bzip2Crc(data);
  if (data.length > 0) {
    const block = initialRunLength(data);
    if (block.length > BZIP2_BLOCK_LIMIT) throw new Error(`bzip2: ${data.length} bytes do not fit in one block`);
    const rotations = sortedRotations(block);
    const lastColumn = rotations.map((start) => block[(start + block.length - 1) % block.length] as number);
    const inUse = [...new Set(block)].sort((a, b) => a - b);
    const { symbols, alphabetSize } = moveToFront(lastColumn, inUse);

    out.write(24, 0x314159);
    out.write(24, 0x265359);
    out.write(32, crc);
    out.write(1, 0);
    out.write(24, rotations.indexOf(0));
    const ranges = Array.from({ length: 16 }, (_, range) => inUse.some((byte) => byte >> 4 === range));
    out.write(16, ranges.reduce((bits, used, range) => (used ? bits | (0x8000 >> range) : bits), 0));
    ranges.forEach((used, range) => {
      if (used) out.write(16, inUse.filter((byte) => byte >> 4 === range).reduce((bits, byte) => bits | (0x8000 >> (byte & 15)), 0));
    });

    const frequencies = new Array<number>(alphabetSize).fill(0);
    for (const symbol of symbols) frequencies[symbol] = (frequencies[symbol] as number) + 1;
    const lengths = codeLengths(frequencies);
    const codes = canonicalCodes(lengths);
    const tables = 2;
    const selectors = Math.ceil(symbols.length / SYMBOLS_PER_SELECTOR);
    out.write(3, tables);
    out.write(15, selectors);
    // Every selector picks table 0: its move-to-front index is 0, a lone 0 bit.
    for (let selector = 0; selector < selectors; selector++) out.write(1, 0);
    for (let table = 0; table < tables; table++) {
      let current = lengths[0] as number;
      out.write(5, current);
      for (const length of lengths) {
        while (current < length) {
          out.write(2, 0b10);
          current++;
        }
        while (current > length) {
          out.write(2, 0b11);
          current--;
        }
        out.write(1, 0);
      }
    }
    for (const symbol of symbols) out.write(lengths[symbol] as number, codes[symbol] as number);
  }
  out.write(24, 0x177245);
  out.write(24, 0x385090);
  // One block: the combined CRC is the block's CRC rotated left by one bit from zero, i.e. the block CRC.
  out.write(32, crc);
  return out.finish();
}
