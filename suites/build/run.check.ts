/**
 * What a build makes, as dockerd builds it: spec/2 §4.1 names the build file but gives it no language,
 * so what its instructions do is dockerd's. An image whose config is what the build file said, and
 * whose containers see the files RUN made and COPY and ADD brought in.
 */
import { check } from '../../harness/check.ts';
import { imageConfig, imageOutput, inspectImage, streamError } from '../image-steps.ts';
import { buildTar } from '../tar-files.ts';
import { BUILD_TIMEOUT_MS, build, buildContext, builtImage } from './build-steps.ts';

check('build.image.config', {
  title: 'the built image has the Cmd, Env, WorkingDir, Labels, User, ExposedPorts and Volumes its build file gave',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build', '2:POST /build:query:t'],
}, async (context) => {
  const { name } = await builtImage(context, (await buildContext(context, 'config')).tar);
  const config = imageConfig(await inspectImage(context, name));
  const seen = {
    Cmd: config.Cmd,
    env: (config.Env ?? []).includes('GREETING=hello'),
    WorkingDir: config.WorkingDir,
    label: config.Labels?.['shipshape.purpose'],
    User: config.User,
    ExposedPorts: Object.keys(config.ExposedPorts ?? {}),
    Volumes: Object.keys(config.Volumes ?? {}),
  };
  context.expect(seen, 'the config of the built image').toEqual({
    Cmd: ['sh', '-c', 'pwd; id -u; echo $GREETING'],
    env: true,
    WorkingDir: '/work',
    label: 'config',
    User: 'nobody',
    ExposedPorts: ['8080/tcp'],
    Volumes: ['/data'],
  });
});

check('build.run.command', {
  title: 'a container of the built image runs its CMD in its WORKDIR, as its USER (a uid: the fixture image may have no user but root), with its ENV',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build'],
}, async (context) => {
  const { name } = await builtImage(context, (await buildContext(context, 'command')).tar);
  context.expect(await imageOutput(context, name), 'output of the image command (pwd; id -u; echo $GREETING)').toBe('/work\n65534\nhello\n');
});

check('build.run.files', {
  title: 'a container of the built image sees the file RUN wrote, the file COPY copied and the contents of the tar ADD extracted',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build', '2:POST /build:body:archive'],
}, async (context) => {
  const packed = await buildTar([{ kind: 'file', name: 'inner.txt', data: 'inner\n' }]);
  const { tar } = await buildContext(context, 'files', { extra: [{ kind: 'file', name: 'packed.tar', data: packed }] });
  const { name } = await builtImage(context, tar);
  context.expect(await imageOutput(context, name, ['cat', '/made.txt', '/copied.txt', '/added/inner.txt']), 'the three files in the built image').toBe('made\ncopied\ninner\n');
});

check('build.run.mount-needs-buildkit', {
  title: 'RUN --mount is refused when its step runs, in the build stream (200, an error naming BuildKit): the classic builder knows the flag but runs only BuildKit\'s',
  // spec/2 §4.1 gives the build file no language; dockerd 20.10's parser takes RUN's --mount, its classic builder refuses it as the step begins
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
}, async (context) => {
  const { res, messages, output } = await build(context, (await buildContext(context, 'run-mount')).tar);
  context.expect(res.status, `POST /build status: ${res.describe()}`).toBe(200);
  context.expect(streamError(messages)?.error ?? '(no error in the stream)', `the build stream's error; output: ${output.slice(-300)}`).toMatch(/^the --mount option requires BuildKit\b/);
});
