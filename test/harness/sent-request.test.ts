/** What a report keeps of a request and of an answer's first bytes: credentials masked, whole or cut off by a preview; binary bodies by size only. */
import { expect, test } from 'vitest';
import { maskBodySecrets, recordSent } from '../../harness/client/sent-request.ts';

test('access_token, token and refresh_token values are masked, other fields kept', () => {
  const body = '{"access_token":"eyJ.a.b","token":"eyJ.a.b","scope":"repository:a:pull","refresh_token":"R3fr3sh"}';
  expect(maskBodySecrets(body)).toBe('{"access_token":"<masked>","token":"<masked>","scope":"repository:a:pull","refresh_token":"<masked>"}');
});

test('a value the preview cut before its closing quote is masked to the end', () => {
  expect(maskBodySecrets('{"scope":"","refresh_token": "abcdef')).toBe('{"scope":"","refresh_token": "<masked>');
});

test('POST /auth and the accounts API: passwords, identity tokens and auth strings are masked, escaped quotes and all', () => {
  const body = JSON.stringify({ username: 'alice', password: 'pa"ss', serveraddress: 'r.example', auth: 'YWxpY2U6cGFzcw==', IdentityToken: 'r3fr3sh' });
  expect(maskBodySecrets(body)).toBe('{"username":"alice","password":"<masked>","serveraddress":"r.example","auth":"<masked>","IdentityToken":"<masked>"}');
});

test('the token service form: password and refresh_token fields are masked, the rest kept', () => {
  expect(maskBodySecrets('grant_type=password&username=alice&password=s3cret&service=reg&refresh_token=abc'))
    .toBe('grant_type=password&username=alice&password=<masked>&service=reg&refresh_token=<masked>');
});

test('credential headers are masked, the authorization scheme kept, other headers as sent', () => {
  const sent = recordSent({ authorization: 'Basic YWxpY2U6czNjcmV0', 'X-Registry-Auth': 'eyJ1c2VybmFtZSI6ImEifQ==', 'content-type': 'application/json' }, undefined);
  expect(sent).toEqual({ headers: { authorization: 'Basic <masked>', 'X-Registry-Auth': '<masked>', 'content-type': 'application/json' } });
});

test('a text body is kept with its size; a binary or long one by its size only', () => {
  expect(recordSent({}, '{"Image":"busybox"}')).toEqual({ body: '{"Image":"busybox"}', bodyBytes: 19 });
  expect(recordSent({}, Buffer.from([0x75, 0x73, 0x00, 0x74]))).toEqual({ bodyBytes: 4 });
  expect(recordSent({}, Buffer.from([0xff, 0xfe, 0x41]))).toEqual({ bodyBytes: 3 });
  expect(recordSent({}, 'x'.repeat(5000))).toEqual({ bodyBytes: 5000 });
  expect(recordSent({}, undefined)).toEqual({});
});
