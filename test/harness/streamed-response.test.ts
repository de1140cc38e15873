/**
 * Splitting a stream of JSON objects (spec/1 §4.3.3) by brackets: whatever the separators between
 * the objects and wherever the received text ends; each object parsed once as the stream grows. The seed comes from SHIPSHAPE_SEED (default fixed)
 * and is in the property's name.
 */
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { NonConformingResponse } from '../../harness/client/api-response.ts';
import { splitJsonObjects, StreamedResponse } from '../../harness/client/streamed-response.ts';

const seed = Number(process.env.SHIPSHAPE_SEED ?? 424242);

describe('splitJsonObjects', () => {
  test('objects one per line, back to back, or apart by blanks', () => {
    expect(splitJsonObjects('{"a":1}\n{"b":[2,{"c":3}]}\n')).toEqual(['{"a":1}', '{"b":[2,{"c":3}]}']);
    expect(splitJsonObjects('{"a":1}{"b":2}  \r\n {"c":3}')).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  test('brackets and escaped quotes inside strings do not count', () => {
    expect(splitJsonObjects('{"s":"}{\\"]["}\n{"t":"\\\\"}')).toEqual(['{"s":"}{\\"]["}', '{"t":"\\\\"}']);
  });

  test('an object still arriving is left out', () => {
    expect(splitJsonObjects('{"a":1}\n{"b":{"c":')).toEqual(['{"a":1}']);
    expect(splitJsonObjects('')).toEqual([]);
  });

  test(`any JSON objects, joined by any blanks and cut anywhere, come back whole and in order (seed ${seed})`, () => {
    const separator = fc.stringMatching(/^[ \t\r\n]{0,3}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.object(), separator), { maxLength: 8 }), fc.nat(), (items, cutAt) => {
        const texts = items.map(([value]) => JSON.stringify(value));
        const joined = items.map(([, between], index) => `${texts[index]}${between}`).join('');
        expect(splitJsonObjects(joined)).toEqual(texts);
        // Cut short, a prefix of them: never a part of one.
        const cut = splitJsonObjects(joined.slice(0, cutAt % (joined.length + 1)));
        expect(cut).toEqual(texts.slice(0, cut.length));
      }),
      { seed, numRuns: 300 },
    );
  });
});

describe('StreamedResponse.jsonObjects', () => {
  test('a wait that reads the objects on every chunk parses each object once, however long the stream', async () => {
    const body = new PassThrough();
    const stream = new StreamedResponse(200, 'application/json', body, 'GET /events → 200');
    const count = 2_000;
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const waited = stream.waitFor(() => stream.jsonObjects().length === count);
      for (let index = 0; index < count; index++) {
        // Cut mid-object, with a character of two bytes, as a socket may deliver it.
        const text = `{"id":${index},"name":"é"}\n`;
        body.write(Buffer.from(text).subarray(0, 13));
        body.write(Buffer.from(text).subarray(13));
        await new Promise(setImmediate);
      }
      expect(await waited).toBe(true);
      expect(stream.jsonObjects<{ id: number; name: string }>().map(({ id, name }) => `${id}${name}`)).toEqual(Array.from({ length: count }, (_, index) => `${index}é`));
      expect(parse).toHaveBeenCalledTimes(count);
    } finally {
      parse.mockRestore();
    }
  });

  test('what is not JSON is a non-conforming answer, every time it is asked', () => {
    const body = new PassThrough();
    const stream = new StreamedResponse(200, 'application/json', body, 'GET /events → 200');
    body.write('{"ok":1}{"bad":tru}');
    return new Promise<void>((resolve) => setImmediate(() => {
      expect(() => stream.jsonObjects()).toThrow(/streamed something that is not JSON: "\{\\"bad\\":tru\}"/);
      expect(() => stream.jsonObjects()).toThrow(NonConformingResponse);
      resolve();
    }));
  });
});
