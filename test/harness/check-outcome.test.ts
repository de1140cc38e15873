import { expect, test } from 'vitest';
import { AssertionError } from 'node:assert';
import { outcomeOf } from '../../harness/check.ts';
import { NonConformingResponse } from '../../harness/client/api-response.ts';
import { decodeFrames } from '../../harness/streams/frame-decoder.ts';

test('assertion failures and protocol breaks are the target\'s fault; anything else is an error of the check', () => {
  let vitestAssertion: unknown;
  try {
    expect(1).toBe(2);
  } catch (error) {
    vitestAssertion = error;
  }
  expect(outcomeOf(vitestAssertion)).toBe('failed');
  expect(outcomeOf(new AssertionError({ message: 'x' }))).toBe('failed');
  expect(outcomeOf(new NonConformingResponse('not JSON'))).toBe('failed');
  let badFraming: unknown;
  try {
    decodeFrames(Buffer.from([9, 0, 0, 0, 0, 0, 0, 0]));
  } catch (error) {
    badFraming = error;
  }
  expect(outcomeOf(badFraming)).toBe('failed');
  expect(outcomeOf(new TypeError('fetch failed'))).toBe('error');
  expect(outcomeOf('a string')).toBe('error');
});
