import { check } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';
import { before } from '../../protocol/versions.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';

const UNKNOWN_CONTAINER = 'shipshape-no-such-container';

/** The message of an error body, read as the version writes it: the text before 1.24, `message` from 1.24 (spec/1 §7.1). */
function errorMessage(res: ApiResponse, version: string): unknown {
  return before(version, '1.24') ? res.text().trim() : res.json<{ message?: unknown }>().message;
}

check('system.errors.body-format', {
  title: 'error bodies are plain text before 1.24 and {"message": string} JSON from 1.24',
  spec: '1 §7',
  quote: ['From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.', '404 no such container'],
  since: '1.18',
  tags: ['error', 'version'],
  covers: ['1:version-rule:1.24:json-errors'],
}, async (context) => {
  const res = await context.engine.get(`/containers/${UNKNOWN_CONTAINER}/json`);
  context.expect(res.status, 'status').toBe(404);
  expectErrorBodyOfVersion(context, res);
});

check('system.errors.not-found-message', {
  title: 'removing an unknown container answers 404 with a message (any wording: the spec fixes none)',
  spec: '1 §7',
  quote: ['From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.', '404 no such container'],
  since: '1.18',
  tags: ['error'],
}, async ({ engine, expect, version }) => {
  const res = await engine.delete(`/containers/${UNKNOWN_CONTAINER}`);
  expect(res.status, 'status').toBe(404);
  const message = errorMessage(res, version);
  expect(typeof message === 'string' && message.length > 0, `a message in the error body: ${JSON.stringify(res.text())}`).toBe(true);
});

check('system.errors.no-such-container-wording', {
  title: "an unknown container's 404 says dockerd's words: No such container: <name>",
  spec: '1 §7',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['error'],
}, async ({ engine, expect, version }) => {
  const res = await engine.delete(`/containers/${UNKNOWN_CONTAINER}`);
  expect(res.status, 'status').toBe(404);
  expect(errorMessage(res, version), 'the error message').toBe(`No such container: ${UNKNOWN_CONTAINER}`);
});
