import { describe, expect, test } from 'vitest';
import { Readable, Writable } from 'node:stream';
import { encodeFrame, encodeFrameHeader, FrameEncoder, frameChunks, streamTypeCode, writeFrame } from '../../../protocol/frame-encoder.ts';
import { MAX_FRAME_PAYLOAD_LENGTH } from '../../../protocol/stream-types.ts';

/** The header as the spec spells it, byte by byte: type, three zeros, size big-endian. */
const specHeader = (type: number, size: number) => [type, 0, 0, 0, (size >>> 24) & 0xff, (size >>> 16) & 0xff, (size >>> 8) & 0xff, size & 0xff];

describe('frame encoder', () => {
  test('encodes the spec header: type byte, three zero bytes, big-endian size, then the payload', () => {
    expect([...encodeFrame('stdout', Buffer.from('out\n'))]).toEqual([...specHeader(1, 4), ...Buffer.from('out\n')]);
    expect([...encodeFrame('stderr', Buffer.from('e'))]).toEqual([...specHeader(2, 1), 0x65]);
    expect([...encodeFrame('stdin', Buffer.alloc(0))]).toEqual(specHeader(0, 0));
    // A size that needs all four bytes, so a little-endian or 16-bit size field would show.
    expect([...encodeFrameHeader('stdout', 0x01020304)]).toEqual([1, 0, 0, 0, 1, 2, 3, 4]);
    expect([...encodeFrameHeader(2, MAX_FRAME_PAYLOAD_LENGTH)]).toEqual([2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
  });

  test('takes stream names and type codes alike, and refuses anything else', () => {
    expect([streamTypeCode('stdin'), streamTypeCode('stdout'), streamTypeCode('stderr')]).toEqual([0, 1, 2]);
    expect(encodeFrame(2, Buffer.from('x'))).toEqual(encodeFrame('stderr', Buffer.from('x')));
    expect(() => streamTypeCode(3 as 0)).toThrow(RangeError);
    expect(() => encodeFrame('stdio' as 'stdout', Buffer.from('x'))).toThrow(/not a frame stream type: "stdio"/);
  });

  test('refuses a payload the 32-bit size field cannot carry', () => {
    expect(() => encodeFrameHeader('stdout', MAX_FRAME_PAYLOAD_LENGTH + 1)).toThrow(/at most 4294967295 bytes/);
  });

  test('frameChunks hands back the payload itself, not a copy', () => {
    const payload = Buffer.from('no copy');
    const [header, same] = frameChunks('stdout', payload);
    expect(same).toBe(payload);
    expect([...header]).toEqual(specHeader(1, payload.length));
  });

  test('writeFrame sends header and payload in one writev to a corkable writable', async () => {
    const batches: Buffer[][] = [];
    const sink = new Writable({
      writev(chunks, callback) {
        batches.push(chunks.map(({ chunk }) => chunk as Buffer));
        callback();
      },
    });
    const payload = Buffer.from('hello');
    expect(writeFrame(sink, 'stderr', payload)).toBe(true);
    await new Promise<void>((resolve) => sink.end(resolve));
    expect(batches).toHaveLength(1);
    expect(batches[0]?.[1]).toBe(payload);
    expect(Buffer.concat(batches[0] ?? [])).toEqual(encodeFrame('stderr', payload));
  });

  test('FrameEncoder frames each write as one frame of its stream and skips empty writes', async () => {
    const framed: Buffer[] = [];
    const encoder = Readable.from(['ab', '', 'cde'].map((text) => Buffer.from(text))).pipe(new FrameEncoder('stderr'));
    for await (const chunk of encoder) framed.push(chunk as Buffer);
    expect(Buffer.concat(framed)).toEqual(Buffer.concat([encodeFrame('stderr', Buffer.from('ab')), encodeFrame('stderr', Buffer.from('cde'))]));
  });
});
