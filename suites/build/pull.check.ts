/**
 * POST /build with pull=1 (spec/2 §4.1: pull even if an older image exists) and X-Registry-Config
 * (the credentials for each registry, base64 of a ConfigFile): the base image is the fixture pushed
 * to the run's registry, whose repositories are private, and the engine has it under that name too.
 * Without credentials the build fails, so pull=1 went to the registry rather than take the image the
 * engine has; with them it pulls, and builds.
 */
import { check } from '../../harness/check.ts';
import { streamError } from '../image-steps.ts';
import { pushedFixture, registryConfigHeader, registryUser } from '../registry-steps.ts';
import { BUILD_TIMEOUT_MS, build, buildContext } from './build-steps.ts';

check('build.pull.registry-config', {
  title: 'a build with pull=1 of a private base image the engine has fails without X-Registry-Config, and pulls it and builds with it',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['state'],
  requires: ['registry'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build:query:pull', '2:POST /build:header:X-Registry-Config'],
}, async (context) => {
  const { expect } = context;
  const pushed = await pushedFixture(context, 'buildpull');
  const { tar } = await buildContext(context, 'minimal', { values: { fixture: `${pushed.repository}:${pushed.tag}` } });
  const refused = await build(context, tar, { pull: 1 });
  expect({ status: refused.res.status, failed: streamError(refused.messages) !== undefined }, `the build without X-Registry-Config; output: ${refused.output.slice(-300)}`).toEqual({ status: 200, failed: true });
  const pulled = await build(context, tar, { pull: 1 }, registryConfigHeader(registryUser(context)));
  expect({ status: pulled.res.status, error: streamError(pulled.messages)?.error }, `the build with X-Registry-Config; output: ${pulled.output.slice(-300)}`).toEqual({ status: 200, error: undefined });
});
