/** The few DER encodings a self-signed X.509 certificate needs (ITU-T X.690), nothing more. */

function lengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tagged(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), lengthBytes(content.length), content]);
}

export const sequence = (...items: Buffer[]): Buffer => tagged(0x30, Buffer.concat(items));
export const set = (...items: Buffer[]): Buffer => tagged(0x31, Buffer.concat(items));
/** `[n] EXPLICIT` context-specific constructed tag */
export const explicit = (n: number, content: Buffer): Buffer => tagged(0xa0 + n, content);
export const nullValue = (): Buffer => Buffer.from([0x05, 0x00]);
export const utf8String = (text: string): Buffer => tagged(0x0c, Buffer.from(text, 'utf8'));
export const octetString = (content: Buffer): Buffer => tagged(0x04, content);
export const bitString = (content: Buffer): Buffer => tagged(0x03, Buffer.concat([Buffer.from([0]), content]));
export const boolean = (value: boolean): Buffer => Buffer.from([0x01, 0x01, value ? 0xff : 0x00]);

/** A non-negative INTEGER from its big-endian bytes: a leading zero keeps a high first bit from reading as negative. */
export function unsignedInteger(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
  const trimmed = bytes.subarray(start);
  return tagged(0x02, (trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

export function objectIdentifier(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const base128: number[] = [arc & 0x7f];
    for (let value = Math.floor(arc / 128); value > 0; value = Math.floor(value / 128)) base128.unshift((value & 0x7f) | 0x80);
    bytes.push(...base128);
  }
  return tagged(0x06, Buffer.from(bytes));
}

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 §4.1.2.5). */
export function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').replace(/\.\d+Z$/, 'Z');
  return date.getUTCFullYear() < 2050 ? tagged(0x17, Buffer.from(iso.slice(2), 'ascii')) : tagged(0x18, Buffer.from(iso, 'ascii'));
}
