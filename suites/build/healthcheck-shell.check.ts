/**
 * HEALTHCHECK and SHELL in a build file, as dockerd 20.10's classic builder does them: spec/2 §4.1
 * names the build file but gives it no language, and image inspect (§2.1) lists neither
 * Config.Healthcheck nor Config.Shell. HEALTHCHECK sets Config.Healthcheck (its timings in
 * nanoseconds, `NONE` turns an inherited one off); SHELL, in JSON form only, is what the shell form
 * of the later RUN and CMD runs through, and the image keeps it as Config.Shell. A malformed one is
 * refused before anything is built (400).
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { imageConfig, imageOutput, inspectImage, type ImageConfig } from '../image-steps.ts';
import { BUILD_TIMEOUT_MS, build, buildContext, builtImage } from './build-steps.ts';

const DOCKER = { spec: '2 §4.1', level: 'docker', seen: 'dockerd 20.10.24', since: '1.18', timeoutMs: BUILD_TIMEOUT_MS } as const;

/** The shell the `shell` context sets: `env` puts SHELLED=yes into what runs, so the output shows the shell ran it. */
const SHELL = ['/bin/env', 'SHELLED=yes', '/bin/sh', '-c'];

/** The config of an image this check built, with the fields these instructions set (image-steps' ImageConfig leaves them out). */
async function builtConfig(context: CheckContext, name: string): Promise<ImageConfig & { Healthcheck?: unknown; Shell?: string[] }> {
  return imageConfig(await inspectImage(context, name));
}

/** POST /build of a context whose build file breaks `rule`: refused before anything is built, 400, the error naming the rule. */
async function refusedBuild(context: CheckContext, contextName: string, rule: string): Promise<void> {
  const { res } = await build(context, (await buildContext(context, contextName)).tar);
  context.expect({ status: res.status, namesRule: res.text().includes(rule) }, `POST /build: ${res.describe()}`).toEqual({ status: 400, namesRule: true });
}

check('build.healthcheck.options', {
  ...DOCKER,
  title: 'HEALTHCHECK --interval=5s --timeout=3s --start-period=2s --retries=4 CMD <shell form> sets Config.Healthcheck: Test ["CMD-SHELL", "<command>"], the timings in nanoseconds, Retries 4',
  tags: ['state'],
  covers: ['2:POST /build'],
}, async (context) => {
  const { name } = await builtImage(context, (await buildContext(context, 'healthcheck')).tar);
  context.expect((await builtConfig(context, name)).Healthcheck, 'Config.Healthcheck of the built image').toEqual({
    Test: ['CMD-SHELL', 'cat /etc/hostname'],
    Interval: 5_000_000_000,
    Timeout: 3_000_000_000,
    StartPeriod: 2_000_000_000,
    Retries: 4,
  });
});

check('build.healthcheck.exec-form-and-none', {
  ...DOCKER,
  title: 'HEALTHCHECK CMD ["cat", "/etc/hostname"] sets Test ["CMD", "cat", "/etc/hostname"]; HEALTHCHECK NONE in an image built FROM it sets Test ["NONE"]',
  tags: ['state'],
  covers: ['2:POST /build'],
}, async (context) => {
  const parent = await builtImage(context, (await buildContext(context, 'healthcheck-parent')).tar);
  const child = await builtImage(context, (await buildContext(context, 'healthcheck-none', { values: { parent: parent.name } })).tar);
  const healthchecks = [(await builtConfig(context, parent.name)).Healthcheck, (await builtConfig(context, child.name)).Healthcheck];
  context.expect(healthchecks, 'Config.Healthcheck of the parent, then of the child').toEqual([{ Test: ['CMD', 'cat', '/etc/hostname'] }, { Test: ['NONE'] }]);
});

check('build.healthcheck.bad-retries', {
  ...DOCKER,
  title: 'HEALTHCHECK --retries=0 is refused before the build: 400, the error says --retries must be at least 1',
  tags: ['error'],
  covers: ['2:POST /build'],
}, (context) => refusedBuild(context, 'healthcheck-bad-retries', '--retries must be at least 1 (not 0)'));

check('build.shell.run-and-cmd', {
  ...DOCKER,
  title: 'SHELL ["/bin/env", "SHELLED=yes", "/bin/sh", "-c"]: a later RUN in shell form runs through it, a later CMD in shell form is that shell and the command, and Config.Shell keeps it',
  tags: ['state'],
  covers: ['2:POST /build'],
}, async (context) => {
  const { name } = await builtImage(context, (await buildContext(context, 'shell')).tar);
  const { Shell, Cmd } = await builtConfig(context, name);
  context.expect({ Shell, Cmd }, 'Config.Shell and Config.Cmd of the built image').toEqual({ Shell: SHELL, Cmd: [...SHELL, 'echo "cmd:$SHELLED"'] });
  context.expect(await imageOutput(context, name, ['cat', '/shell.txt']), 'the file the RUN wrote with $SHELLED').toBe('run:yes\n');
  context.expect(await imageOutput(context, name), 'the output of the image\'s CMD').toBe('cmd:yes\n');
});

check('build.shell.json-only', {
  ...DOCKER,
  title: 'SHELL in shell form (SHELL /bin/sh -c) is refused before the build: 400, the error says SHELL requires the JSON form',
  tags: ['error'],
  covers: ['2:POST /build'],
}, (context) => refusedBuild(context, 'shell-not-json', 'SHELL requires the arguments to be in JSON form'));
