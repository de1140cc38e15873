import { check } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';

const UNKNOWN_CONTAINER = 'shipshape-no-such-container';

check('system.errors.body-format', {
  title: 'error bodies are plain text before 1.24 and {"message": string} JSON from 1.24',
  spec: '1 §7',
  since: '1.18',
  tags: ['error', 'version'],
  covers: ['1:version-rule:1.24:json-errors'],
}, async (context) => {
  const res = await context.engine.get(`/containers/${UNKNOWN_CONTAINER}/json`);
  context.expect(res.status, 'status').toBe(404);
  expectErrorBodyOfVersion(context, res);
});

check('system.errors.not-found-message', {
  title: 'an unknown container id gives 404 with a message naming it: No such container',
  spec: '1 §7',
  since: '1.18',
  tags: ['error'],
}, async ({ engine, expect }) => {
  const res = await engine.delete(`/containers/${UNKNOWN_CONTAINER}`);
  expect(res.status, 'status').toBe(404);
  expect(res.text(), 'error body').toMatch(new RegExp(`No such container: ${UNKNOWN_CONTAINER}`, 'i'));
});
