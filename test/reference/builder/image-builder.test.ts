/**
 * The builder on the model: each instruction's effect on the image's config, history and
 * filesystem, the messages dockerd writes for each step, intermediate containers and their events,
 * failures.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { StepFailedError } from '../../../reference/engine/builder/build-output.ts';
import { EngineModel } from '../../../reference/engine/model/engine-model.ts';
import type { EngineEvent } from '../../../reference/engine/model/events/event-bus.ts';
import { failedBuild, filesystemOf, runBuild } from './build-fixtures.ts';

let model: EngineModel;
let events: EngineEvent[];

beforeEach(() => {
  model = new EngineModel();
  events = [];
  model.events.subscribe((event) => events.push(event));
});

const busyboxShortId = () => model.images.find('busybox').id.slice(7, 19);

describe('the stream', () => {
  test('a build says each step, its container and its image, as dockerd does, message by message', async () => {
    const { image, output } = await runBuild(model, 'FROM busybox\nENV A=1\nRUN echo out\nCOPY f /f\n', { f: 'x' }, { tags: ['built:one'] });
    const short = (id: string) => id.slice(0, 12);
    const containers = events.filter((event) => event.type === 'container' && event.action === 'create').map((event) => short(event.actorId));
    const [envStep, runStep, copyStep] = image.history.slice(-3).map((entry) => entry.createdBy);
    expect(envStep).toBe('/bin/sh -c #(nop)  ENV A=1');
    expect(runStep).toBe('/bin/sh -c echo out');
    expect(copyStep).toMatch(/^\/bin\/sh -c #\(nop\) COPY file:[0-9a-f]{64} in \/f $/);
    const parent = model.images.byId(image.parent);
    const grandparent = model.images.byId(parent?.parent ?? '');
    expect(output.messages).toEqual([
      'Step 1/4 : FROM busybox',
      '\n',
      ` ---> ${busyboxShortId()}\n`,
      'Step 2/4 : ENV A=1',
      '\n',
      ` ---> Running in ${containers[0]}\n`,
      `Removing intermediate container ${containers[0]}\n`,
      ` ---> ${grandparent?.id.slice(7, 19)}\n`,
      'Step 3/4 : RUN echo out',
      '\n',
      ` ---> Running in ${containers[1]}\n`,
      'out\n',
      `Removing intermediate container ${containers[1]}\n`,
      ` ---> ${parent?.id.slice(7, 19)}\n`,
      'Step 4/4 : COPY f /f',
      '\n',
      ` ---> ${image.id.slice(7, 19)}\n`,
      `Successfully built ${image.id.slice(7, 19)}\n`,
      'Successfully tagged built:one\n',
    ]);
  });

  test("a step's standard error is told apart", async () => {
    const { output } = await runBuild(model, 'FROM busybox\nRUN echo oops >&2\n');
    expect(output.messages).toContain('[stderr]oops\n');
  });

  test('RUN containers publish create, attach, start, die and destroy; config steps create and destroy', async () => {
    await runBuild(model, 'FROM busybox\nRUN true\nENV A=1\n', {}, { tags: ['built:events'] });
    // the network events of the RUN container's start and end are the networks' business
    const actions = events.filter((event) => event.type !== 'network').map((event) => `${event.type} ${event.action}`);
    expect(actions).toEqual([
      'container create',
      'container attach',
      'container start',
      'container die',
      'container destroy',
      'container create',
      'container destroy',
      'image tag',
    ]);
    expect(events[0]?.attributes.image).toBe(model.images.find('busybox').id);
  });
});

describe('instructions', () => {
  test('config instructions set the config and record their comment in the history', async () => {
    const dockerfile = [
      'FROM busybox',
      'ENV A=1 B="two words"',
      'ENV A=replaced C=${B}',
      'LABEL "k"="v w" k2=v2',
      'EXPOSE 80 443/udp 8000-8001',
      'VOLUME /data ["/v2"]',
      'USER nobody',
      'ENTRYPOINT echo hi',
      'CMD ["a", "b"]',
      'STOPSIGNAL SIGKILL',
      'MAINTAINER me@example.test',
      'ONBUILD RUN echo triggered',
      'WORKDIR /w',
      'WORKDIR sub',
    ].join('\n');
    const { image } = await runBuild(model, dockerfile);
    expect(image.config).toMatchObject({
      Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'A=replaced', 'B=two words', 'C=two words'],
      Labels: { k: 'v w', k2: 'v2' },
      ExposedPorts: { '80/tcp': {}, '443/udp': {}, '8000/tcp': {}, '8001/tcp': {} },
      Volumes: { '/data': {}, '[/v2]': {} },
      User: 'nobody',
      Entrypoint: ['/bin/sh', '-c', 'echo hi'],
      Cmd: ['a', 'b'],
      StopSignal: 'SIGKILL',
      OnBuild: ['RUN echo triggered'],
      WorkingDir: '/w/sub',
    });
    expect(image.author).toBe('me@example.test');
    expect(image.history.slice(2).map((entry) => entry.createdBy.replace('/bin/sh -c #(nop) ', ''))).toEqual([
      ' ENV A=1 B=two words',
      ' ENV A=replaced C=two words',
      ' LABEL k=v w k2=v2',
      ' EXPOSE 443/udp 80 8000-8001',
      ' VOLUME [/data [/v2]]',
      ' USER nobody',
      ' ENTRYPOINT ["/bin/sh" "-c" "echo hi"]',
      ' CMD ["a" "b"]',
      ' STOPSIGNAL SIGKILL',
      ' MAINTAINER me@example.test',
      ' ONBUILD RUN echo triggered',
      'WORKDIR /w',
      'WORKDIR /w/sub',
    ]);
    expect(filesystemOf(image).stat('/w/sub')?.kind).toBe('directory');
  });

  test('ENTRYPOINT drops an inherited CMD, not one the stage set', async () => {
    expect((await runBuild(model, 'FROM busybox\nENTRYPOINT ["top"]\n')).image.config.Cmd).toBeNull();
    expect((await runBuild(model, 'FROM busybox\nCMD ["x"]\nENTRYPOINT ["top"]\n')).image.config.Cmd).toEqual(['x']);
  });

  test('ENTRYPOINT with no command is none, as on dockerd (the comment shows [])', async () => {
    const { image } = await runBuild(model, 'FROM busybox\nCMD ["x"]\nENTRYPOINT\n');
    expect(image.config).toMatchObject({ Entrypoint: null, Cmd: ['x'] });
    expect(image.history.at(-1)?.createdBy).toBe('/bin/sh -c #(nop)  ENTRYPOINT []');
  });

  test('HEALTHCHECK: the config, Go\'s %q of it as the comment, and a note when it replaces one that tested something', async () => {
    const dockerfile = [
      'FROM busybox',
      'HEALTHCHECK CMD ["cat", "/etc/hostname"]',
      'HEALTHCHECK --timeout=1h --retries=65 CMD echo a "b"',
      'HEALTHCHECK NONE',
      'HEALTHCHECK --start-period=1.5s --interval=500ms --retries=300 CMD x',
    ].join('\n');
    const { image, output } = await runBuild(model, dockerfile);
    expect(image.history.slice(-4).map((entry) => entry.createdBy)).toEqual([
      '/bin/sh -c #(nop)  HEALTHCHECK &{["CMD" "cat" "/etc/hostname"] "0s" "0s" "0s" \'\\x00\'}',
      '/bin/sh -c #(nop)  HEALTHCHECK &{["CMD-SHELL" "echo a \\"b\\""] "0s" "1h0m0s" "0s" \'A\'}',
      '/bin/sh -c #(nop)  HEALTHCHECK &{["NONE"] "0s" "0s" "0s" \'\\x00\'}',
      '/bin/sh -c #(nop)  HEALTHCHECK &{["CMD-SHELL" "x"] "500ms" "0s" "1.5s" \'Ĭ\'}',
    ]);
    expect(output.messages.filter((message) => message.startsWith('Note'))).toEqual([
      'Note: overriding previous HEALTHCHECK: [CMD cat /etc/hostname]\n',
      'Note: overriding previous HEALTHCHECK: [CMD-SHELL echo a "b"]\n',
    ]);
    // each step's container fills the parts its healthcheck leaves empty from the image before it, and the stage keeps them (dockerd 20.10)
    expect(image.config.Healthcheck).toEqual({ Test: ['CMD-SHELL', 'x'], Interval: 5e8, Timeout: 3600e9, StartPeriod: 15e8, Retries: 300 });
  });

  test('SHELL: the later RUN, CMD and ENTRYPOINT in shell form and every step comment run through it; the image records it', async () => {
    const dockerfile = ['FROM busybox', 'SHELL ["/bin/env", "SHELLED=yes", "/bin/sh", "-c"]', 'RUN echo "shelled=$SHELLED"', 'CMD echo cmd', 'ENTRYPOINT ["top"]', 'WORKDIR /w', 'COPY f /f'].join('\n');
    const { image, output } = await runBuild(model, dockerfile, { f: 'x' });
    const shell = ['/bin/env', 'SHELLED=yes', '/bin/sh', '-c'];
    expect(output.messages).toContain('shelled=yes\n');
    expect(image.config).toMatchObject({ Shell: shell, Cmd: [...shell, 'echo cmd'], Entrypoint: ['top'] });
    expect(image.history.slice(-6).map((entry) => entry.createdBy.replace(/file:[0-9a-f]{64}/, 'file:…'))).toEqual([
      '/bin/env SHELLED=yes /bin/sh -c #(nop)  SHELL [/bin/env SHELLED=yes /bin/sh -c]',
      '/bin/env SHELLED=yes /bin/sh -c echo "shelled=$SHELLED"',
      '/bin/env SHELLED=yes /bin/sh -c #(nop)  CMD ["/bin/env" "SHELLED=yes" "/bin/sh" "-c" "echo cmd"]',
      '/bin/env SHELLED=yes /bin/sh -c #(nop)  ENTRYPOINT ["top"]',
      '/bin/env SHELLED=yes /bin/sh -c #(nop) WORKDIR /w',
      '/bin/env SHELLED=yes /bin/sh -c #(nop) COPY file:… in /f ',
    ]);
    // a container of the image does not inherit it (dockerd 20.10's create leaves Config.Shell out)
    expect(model.containers.create({ config: { Image: image.id } }).config).not.toHaveProperty('Shell');
  });

  test("RUN's changes to the filesystem are the step's layer; a RUN that changes nothing adds none", async () => {
    const { image } = await runBuild(model, 'FROM busybox\nRUN echo hello > /f\nRUN true\n');
    expect(filesystemOf(image).readFile('/f').toString()).toBe('hello\n');
    expect(image.history.slice(-2).map((entry) => entry.emptyLayer)).toEqual([false, true]);
    expect(image.diffIds).toHaveLength(model.images.find('busybox').diffIds.length + 1);
  });

  test('RUN runs with the stage config: environment, user, working directory, exec form without a shell', async () => {
    const { output } = await runBuild(model, 'FROM busybox\nENV V=value\nWORKDIR /tmp\nRUN echo $V; pwd; id -u\nRUN ["echo", "$V"]\n');
    expect(output.text).toContain('value\n/tmp\n0\n');
    expect(output.messages).toContain('$V\n');
  });

  test('a RUN that fails ends the build with its exit code; its container stays unless forcerm', async () => {
    const { error, output } = await failedBuild(model, 'FROM busybox\nRUN echo before; exit 3\n');
    expect(error).toBeInstanceOf(StepFailedError);
    expect(error.message).toBe("The command '/bin/sh -c echo before; exit 3' returned a non-zero code: 3");
    expect((error as StepFailedError).code).toBe(3);
    expect(output.messages).toContain('before\n');
    expect(output.text).not.toContain('Removing intermediate container');
    expect(model.containers.size).toBe(1);

    const forced = await failedBuild(model, 'FROM busybox\nRUN exit 1\n', {}, { forceRemove: true });
    expect(forced.output.text).toContain('Removing intermediate container');
    expect(model.containers.size).toBe(1);
  });

  test('rm=false keeps every intermediate container and says nothing of removing them', async () => {
    const { output } = await runBuild(model, 'FROM busybox\nRUN true\nENV A=1\n', {}, { remove: false });
    expect(model.containers.size).toBe(2);
    expect(output.text).not.toContain('Removing');
  });

  test('ONBUILD triggers run when the image is a FROM, before the stage, without steps of their own', async () => {
    await runBuild(model, 'FROM busybox\nONBUILD RUN echo triggered > /trig\nONBUILD ENV T=1\n', {}, { tags: ['base:onbuild'] });
    const { image, output } = await runBuild(model, 'FROM base:onbuild\nRUN cat /trig; echo $T\n');
    expect(output.messages.slice(0, 5)).toEqual(['Step 1/2 : FROM base:onbuild', '\n', '# Executing 2 build trigger', 's', '\n']);
    expect(output.text).toContain('triggered\n1\n');
    expect(image.config.OnBuild).toBeNull();
    expect(image.config.Env).toContain('T=1');
  });

  test('ARG: defaults, buildargs for declared names only, ENV over ARG, the recorded RUN command, unused ones reported', async () => {
    const dockerfile = 'FROM busybox\nARG A=def\nARG B\nARG C=c\nENV C=env\nRUN echo A=$A B=$B C=$C\n';
    const { image, output } = await runBuild(model, dockerfile, {}, { buildArgs: new Map([['B', 'bee'], ['UNUSED', 'u']]) });
    expect(output.messages).toContain('A=def B=bee C=env\n');
    expect(image.history.at(-1)?.createdBy).toBe('|2 A=def B=bee /bin/sh -c echo A=$A B=$B C=$C');
    expect(image.config.Env).not.toContain('A=def');
    expect(output.messages).toContain('[Warning] One or more build-args [UNUSED] were not consumed\n');
  });

  test('meta ARGs name the FROM image; a stage sees them only once it declares them again', async () => {
    const { output } = await runBuild(model, 'ARG BASE=busybox\nARG OTHER=o\nFROM $BASE\nARG BASE\nRUN echo [$BASE] [$OTHER]\n');
    expect(output.messages.slice(0, 5)).toEqual(['Step 1/5 : ARG BASE=busybox', '\n', 'Step 2/5 : ARG OTHER=o', '\n', 'Step 3/5 : FROM $BASE']);
    expect(output.messages).toContain('[busybox] []\n');
  });

  test('the request labels are LABEL steps at the end, one a label, by name, their values never substituted', async () => {
    const { image, output } = await runBuild(model, 'FROM busybox\n', {}, { labels: { z: '$HOME', a: 'v x' } });
    expect(output.messages.filter((message) => message.startsWith('Step'))).toEqual(['Step 1/3 : FROM busybox', 'Step 2/3 : LABEL a=v x', 'Step 3/3 : LABEL z=$HOME']);
    expect(image.config.Labels).toEqual({ a: 'v x', z: '$HOME' });
  });

  test('FROM scratch: COPY makes the first layer; the result has no parent', async () => {
    const { image, output } = await runBuild(model, 'FROM scratch\nCOPY f /f\n', { f: 'data' });
    expect(output.messages[2]).toBe(' ---> \n');
    expect(image.parent).toBe('');
    expect(filesystemOf(image).readFile('/f').toString()).toBe('data');
  });

  test.each([
    ['STOPSIGNAL FOO', 'Invalid signal: FOO'],
    ['EXPOSE abc', 'Invalid containerPort: abc'],
    ['FROM nosuch/image', 'Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io: no such host'],
    ['FROM Bad:Name', 'invalid reference format'],
  ])('%s fails the build: %s', async (line, message) => {
    const dockerfile = line.startsWith('FROM') ? `${line}\n` : `FROM busybox\n${line}\n`;
    expect((await failedBuild(model, dockerfile)).error.message).toBe(message);
  });

  test('pull: the reference reaches no registry, so even a local image fails as on dockerd without network', async () => {
    expect((await failedBuild(model, 'FROM busybox\n', {}, { pull: true })).error.message).toContain('registry-1.docker.io');
  });

  test('a file with nothing to build gives no image', async () => {
    expect((await failedBuild(model, 'FROM scratch\n')).error.message).toBe('No image was generated. Is your Dockerfile empty?');
  });
});
