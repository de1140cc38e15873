/**
 * POST /build with pull=1 (spec/2 §4.1: pull even if an older image exists) and X-Registry-Config
 * (the credentials for each registry, base64 of a ConfigFile): the base image is the fixture pushed
 * to the run's registry, while the engine holds another image under that name. Without credentials
 * the private base cannot be pulled and the build fails; with them the build pulls it, and the name
 * is the pushed image's again.
 */
import { check } from '../../harness/check.ts';
import { committedImage, inspectImage, removeImage, streamError, tagImage } from '../image-steps.ts';
import { pushedFixture, registryConfigHeader, registryUser } from '../registry-steps.ts';
import { BUILD_TIMEOUT_MS, build, buildContext } from './build-steps.ts';

check('build.pull.registry-config', {
  title: 'a build with pull=1 fails without X-Registry-Config for a private base image, and with it pulls the base over the older image of that name',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['state'],
  requires: ['registry'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build:query:pull', '2:POST /build:header:X-Registry-Config'],
}, async (context) => {
  const { expect, session } = context;
  const user = registryUser(context);
  const pushed = await pushedFixture(context, 'buildpull');
  const base = `${pushed.repository}:${pushed.tag}`;
  const older = await committedImage(context, {});
  const removed = await removeImage(context, base);
  expect(removed.status, `removing ${base}: ${removed.describe()}`).toBe(200);
  const retagged = await tagImage(context, older, base);
  expect(retagged.status, `tagging another image ${base}: ${retagged.describe()}`).toBe(201);
  const { tar } = await buildContext(context, 'minimal', { values: { fixture: base } });

  const refused = await build(context, tar, { pull: 1 });
  expect({ status: refused.res.status, failed: streamError(refused.messages) !== undefined }, `the build without X-Registry-Config; output: ${refused.output.slice(-300)}`).toEqual({ status: 200, failed: true });

  const pulled = await build(context, tar, { pull: 1 }, registryConfigHeader(user));
  expect({ status: pulled.res.status, error: streamError(pulled.messages)?.error }, `the build with X-Registry-Config; output: ${pulled.output.slice(-300)}`).toEqual({ status: 200, error: undefined });
  const [named, fixture] = [await inspectImage(context, base), await inspectImage(context, session.fixtureImage)];
  expect(named.Id, `${base} after the build: the pushed image, pulled again`).toBe(fixture.Id);
});
