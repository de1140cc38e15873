/** Token values are masked in what an answer of the token service says about itself, whole or cut off by the preview. */
import { expect, test } from 'vitest';
import { maskSecrets } from '../../harness/client/service-answer.ts';

test('access_token, token and refresh_token values are masked, other fields kept', () => {
  const body = '{"access_token":"eyJ.a.b","token":"eyJ.a.b","scope":"repository:a:pull","refresh_token":"R3fr3sh"}';
  expect(maskSecrets(body)).toBe('{"access_token":"<masked>","token":"<masked>","scope":"repository:a:pull","refresh_token":"<masked>"}');
});

test('a value the preview cut before its closing quote is masked to the end', () => {
  expect(maskSecrets('{"scope":"","refresh_token": "abcdef')).toBe('{"scope":"","refresh_token": "<masked>');
});
