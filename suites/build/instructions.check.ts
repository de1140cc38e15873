/**
 * Build file instructions whose effect outlives the build, all dockerd's: spec/2 §4.1 names the build
 * file but gives it no language, and leaves the build-time variables parameter unnamed. As dockerd
 * does it: ARG set by `buildargs` (from 1.21), ONBUILD triggers that run in the build of a child
 * image, and ENV values substituted into later instructions.
 */
import { check } from '../../harness/check.ts';
import { imageConfig, imageOutput, inspectImage } from '../image-steps.ts';
import { BUILD_TIMEOUT_MS, buildContext, builtImage } from './build-steps.ts';

check('build.args', {
  title: 'from 1.21 buildargs sets an ARG for the instructions after it, over its default',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.21',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:version-rule:1.21:build-args'],
}, async (context) => {
  const { tar } = await buildContext(context, 'args');
  const { name } = await builtImage(context, tar, { buildargs: JSON.stringify({ WHO: 'builder' }) });
  context.expect(await imageOutput(context, name, ['cat', '/who.txt']), 'the file a RUN wrote with $WHO').toBe('builder\n');
});

check('build.onbuild', {
  title: 'ONBUILD keeps its trigger in the image config, and the trigger runs when a child image is built FROM it',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build'],
}, async (context) => {
  const parent = await builtImage(context, (await buildContext(context, 'onbuild-parent')).tar);
  const child = await builtImage(context, (await buildContext(context, 'onbuild-child', { values: { parent: parent.name } })).tar);
  const onBuild = imageConfig(await inspectImage(context, parent.name)).OnBuild;
  context.expect(onBuild, 'Config.OnBuild of the parent').toEqual(['RUN touch /triggered']);
  context.expect(await imageOutput(context, child.name, ['ls', '/triggered']), 'ls /triggered in the child').toBe('/triggered\n');
});

check('build.env-substitution', {
  title: 'ENV values are substituted into later instructions: ${VAR} in ENV, $VAR in WORKDIR',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build'],
}, async (context) => {
  const { name } = await builtImage(context, (await buildContext(context, 'env-substitution')).tar);
  const config = imageConfig(await inspectImage(context, name));
  const seen = { WorkingDir: config.WorkingDir, env: (config.Env ?? []).filter((entry) => entry.startsWith('DATA=')) };
  context.expect(seen, 'the config of the built image').toEqual({ WorkingDir: '/opt/app/data', env: ['DATA=/opt/app/data'] });
});
