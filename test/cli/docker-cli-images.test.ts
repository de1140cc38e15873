/**
 * The real docker CLI's image commands against `shipshape serve --dialect docker`, pinned to API 1.24
 * and 1.25: images, image inspect, history, tag, rmi, save | load, import, commit, and build of a
 * context that uses every instruction the reference's builder knows. Each is asserted on what it did.
 *
 * With SHIPSHAPE_DOCKERD_HOST (CI's live job sets it to its private dockerd), images also cross
 * between the reference and real dockerd: saved from one, loaded into the other, run there. Whatever
 * the test loads into dockerd it removes again.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBusyboxRootfs } from '../../fixtures/busybox-rootfs.ts';
import { atLeast } from '../../protocol/versions.ts';
import { CLI_API_VERSIONS, CLI_NAME, DOCKER, dockerCliInstalled, runCli, SERVE_START_TIMEOUT_MS, serveReference, type CliResult, type ServedReference } from './docker-cli-process.ts';

const DOCKERD_HOST = process.env.SHIPSHAPE_DOCKERD_HOST;
const BUSYBOX = '/bin/busybox';
const busyboxInstalled = existsSync(BUSYBOX);
if (DOCKERD_HOST && !busyboxInstalled) console.warn(`cross-daemon image test skipped: ${BUSYBOX} is missing (install busybox-static)`);
/** builds and saves take longer than one call of the other commands */
const SLOW_CALL_TIMEOUT_MS = 30_000;

/** A build file that uses every instruction; ONBUILD fires in the child build below. */
const BUILD_FILE = `# a comment line
FROM busybox
ARG GREETING=hello
ENV APP_DIR=/app MODE=test
LABEL org.example.purpose="cli test" stage=one
WORKDIR \${APP_DIR}
COPY greeting.txt ./
ADD bundle.tar /opt/
RUN echo "$GREETING from run" > /app/ran.txt && \\
    mkdir -p /data
VOLUME /data
EXPOSE 8080/tcp
USER root
ONBUILD RUN echo triggered > /app/onbuild.txt
ENTRYPOINT ["sh", "-c"]
CMD ["cat /app/greeting.txt /app/ran.txt /opt/bundled.txt"]
`;

/** A tar holding one file, made with the system tar so the test does not lean on the reference's tar code. */
async function tarOfOneFile(dir: string, name: string, content: string, tarPath: string): Promise<void> {
  const source = await fs.mkdtemp(path.join(dir, 'tar-src-'));
  await fs.writeFile(path.join(source, name), content);
  const result = await runCli('tar', ['-cf', tarPath, '-C', source, name], process.env);
  expect(result.code, result.stderr).toBe(0);
}

describe.skipIf(!dockerCliInstalled)(`${CLI_NAME} image commands against shipshape serve --dialect docker`, { timeout: 90_000 }, () => {
  let dir: string;
  let server: ServedReference;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-docker-cli-images-'));
    server = await serveReference(dir);
  }, SERVE_START_TIMEOUT_MS);
  afterAll(async () => {
    await server?.stop();
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** The CLI against `host`; DOCKER_BUILDKIT=0: the API versions under test predate BuildKit. */
  const cliAt = (host: () => string, version: string) => {
    const env = () => ({ ...process.env, DOCKER_HOST: host(), DOCKER_API_VERSION: version, DOCKER_BUILDKIT: '0', DOCKER_CONFIG: path.join(dir, 'docker-config') });
    const docker = (args: string[], input?: string): Promise<CliResult> => runCli(DOCKER, args, env(), input, SLOW_CALL_TIMEOUT_MS);
    const dockerOk = async (args: string[]): Promise<string> => {
      const result = await docker(args);
      expect(result.code, `docker ${args.join(' ')}: ${result.stderr}`).toBe(0);
      return result.stdout;
    };
    return { docker, dockerOk };
  };

  describe.each(CLI_API_VERSIONS)('DOCKER_API_VERSION=%s', (version) => {
    /** Image names are global to the one server: each version names its own. */
    const named = (name: string) => `cli${version.replace('.', '')}-${name}`;
    const { docker, dockerOk } = cliAt(() => server.url, version);
    const inspect = async (target: string, template: string) => (await dockerOk(['image', 'inspect', '--format', template, target])).trim();

    it('images lists the seeded busybox; image inspect shows its id, config and layers', async () => {
      const table = await dockerOk(['images']);
      expect(table.split('\n')[0]).toMatch(/^REPOSITORY +TAG +IMAGE ID +CREATED +SIZE$/);
      expect(table).toMatch(/^busybox +latest +[0-9a-f]{12} +\S.* ago +\d/m);
      const id = await inspect('busybox', '{{.Id}}');
      expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(await dockerOk(['images', '-q', '--no-trunc', 'busybox'])).toBe(`${id}\n`);
      expect(await inspect('busybox', '{{json .Config.Cmd}} {{.Os}} {{len .RootFS.Layers}}')).toBe('["sh"] linux 1');
    });

    it('tag adds a name to the image, images filters on it, and rmi of the tag only untags', async () => {
      const tagged = `${named('tagged')}:v1`;
      await dockerOk(['tag', 'busybox', tagged]);
      const id = await inspect('busybox', '{{.Id}}');
      expect(await inspect(tagged, '{{.Id}}')).toBe(id);
      expect(await dockerOk(['images', '--format', '{{.Repository}}:{{.Tag}}', named('tagged')])).toBe(`${tagged}\n`);
      expect(await dockerOk(['rmi', tagged])).toBe(`Untagged: ${tagged}\n`);
      expect(await inspect('busybox', '{{.Id}}')).toBe(id);
      expect((await docker(['image', 'inspect', tagged])).code).toBe(1);
    });

    it('commit makes an image of a container with the message, author and changes given; it runs with the file the container wrote', async () => {
      const box = named('commit-box');
      await dockerOk(['run', '--name', box, 'busybox', 'sh', '-c', 'echo committed-content > /tmp/note']);
      const image = `${named('committed')}:v1`;
      const id = (await dockerOk(['commit', '-m', 'the message', '-a', 'an author', '-c', 'CMD ["cat", "/tmp/note"]', box, image])).trim();
      expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(await inspect(image, '{{.Id}}|{{.Comment}}|{{.Author}}|{{json .Config.Cmd}}')).toBe(`${id}|the message|an author|["cat","/tmp/note"]`);
      expect(await dockerOk(['run', '--rm', image])).toBe('committed-content\n');
      const history = (await dockerOk(['history', '--no-trunc', '--format', '{{.ID}}|{{.Comment}}', image])).trim().split('\n');
      // History items carry Comment from 1.25 (spec/2 §2.1); dockerd shows it at 1.24 as well.
      expect(history[0]).toMatch(new RegExp(`^${id}\\|${atLeast(version, '1.25') ? 'the message' : '(the message)?'}$`));
      await dockerOk(['rm', box]);
      expect(await dockerOk(['rmi', image])).toMatch(new RegExp(`^Untagged: ${image}\\nDeleted: ${id}\\n`));
    });

    it('export | import makes an image of a container filesystem that runs', async () => {
      const box = named('export-box');
      await dockerOk(['create', '--name', box, 'busybox', 'true']);
      const exported = path.join(dir, `${named('exported')}.tar`);
      await dockerOk(['export', '-o', exported, box]);
      await dockerOk(['rm', box]);
      const image = `${named('imported')}:v1`;
      const id = (await dockerOk(['import', '--change', 'CMD ["echo", "imported"]', exported, image])).trim();
      expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(await inspect(image, '{{json .Config.Cmd}} {{len .RootFS.Layers}}')).toBe('["echo","imported"] 1');
      expect(await dockerOk(['run', '--rm', image])).toBe('imported\n');
      await dockerOk(['rmi', image]);
    });

    it('build runs a context using every instruction; the image runs and carries the config; a rebuild uses the cache; ONBUILD fires in a child', async () => {
      const context = path.join(dir, named('context'));
      await fs.mkdir(context);
      await fs.writeFile(path.join(context, 'Dockerfile'), BUILD_FILE);
      await fs.writeFile(path.join(context, 'greeting.txt'), 'copied greeting\n');
      await tarOfOneFile(dir, 'bundled.txt', 'extracted from the tar\n', path.join(context, 'bundle.tar'));
      const image = `${named('built')}:v1`;

      const built = await dockerOk(['build', '-t', image, '--build-arg', 'GREETING=hi', context]);
      expect(built).toMatch(/^Step 1\/14 : FROM busybox$/m);
      expect(built).toMatch(/^Successfully built [0-9a-f]{12}$/m);
      expect(built).toMatch(new RegExp(`^Successfully tagged ${image}$`, 'm'));
      expect(await dockerOk(['run', '--rm', image])).toBe('copied greeting\nhi from run\nextracted from the tar\n');
      const config = JSON.parse(await inspect(image, '{{json .Config}}')) as Record<string, unknown>;
      expect(config).toMatchObject({
        WorkingDir: '/app',
        User: 'root',
        Entrypoint: ['sh', '-c'],
        Cmd: ['cat /app/greeting.txt /app/ran.txt /opt/bundled.txt'],
        Labels: { 'org.example.purpose': 'cli test', stage: 'one' },
        ExposedPorts: { '8080/tcp': {} },
        Volumes: { '/data': {} },
        OnBuild: ['RUN echo triggered > /app/onbuild.txt'],
      });
      expect(config.Env).toEqual(expect.arrayContaining(['APP_DIR=/app', 'MODE=test']));
      // Newest first, as dockerd's classic builder words them; FROM adds none, busybox's own come last.
      const steps = (await dockerOk(['history', '--no-trunc', '--format', '{{.CreatedBy}}', image])).split('\n');
      expect(steps.slice(0, 13)).toEqual([
        '/bin/sh -c #(nop)  CMD ["cat /app/greeting.txt /app/ran.txt /opt/bundled.txt"]',
        '/bin/sh -c #(nop)  ENTRYPOINT ["sh" "-c"]',
        '/bin/sh -c #(nop)  ONBUILD RUN echo triggered > /app/onbuild.txt',
        '/bin/sh -c #(nop)  USER root',
        '/bin/sh -c #(nop)  EXPOSE 8080/tcp',
        '/bin/sh -c #(nop)  VOLUME [/data]',
        '|1 GREETING=hi /bin/sh -c echo "$GREETING from run" > /app/ran.txt &&     mkdir -p /data',
        expect.stringMatching(/^\/bin\/sh -c #\(nop\) ADD file:[0-9a-f]{64} in \/opt\/ $/),
        expect.stringMatching(/^\/bin\/sh -c #\(nop\) COPY file:[0-9a-f]{64} in \.\/ $/),
        '/bin/sh -c #(nop) WORKDIR /app',
        '/bin/sh -c #(nop)  LABEL org.example.purpose=cli test stage=one',
        '/bin/sh -c #(nop)  ENV APP_DIR=/app MODE=test',
        '/bin/sh -c #(nop)  ARG GREETING=hello',
      ]);

      const rebuilt = await dockerOk(['build', '-t', image, '--build-arg', 'GREETING=hi', context]);
      expect(rebuilt.match(/^ ---> Using cache$/gm)).toHaveLength(13);
      expect(rebuilt).toMatch(new RegExp(`^Successfully built ${(await inspect(image, '{{.Id}}')).slice(7, 19)}$`, 'm'));

      const childContext = path.join(dir, named('child-context'));
      await fs.mkdir(childContext);
      await fs.writeFile(path.join(childContext, 'Dockerfile'), `FROM ${image}\n`);
      const child = `${named('child')}:v1`;
      expect(await dockerOk(['build', '-t', child, childContext])).toMatch(/^# Executing 1 build trigger/m);
      expect(await dockerOk(['run', '--rm', child, 'cat /app/onbuild.txt'])).toBe('triggered\n');
      await dockerOk(['rmi', child, image]);
    });

    it('save | load: an image saved, removed and loaded comes back with its id and tag and runs', async () => {
      const image = `${named('saved')}:v1`;
      await dockerOk(['tag', 'busybox', image]);
      const id = await inspect(image, '{{.Id}}');
      const file = path.join(dir, `${named('saved')}.tar`);
      await dockerOk(['save', '-o', file, image]);
      await dockerOk(['rmi', image]);
      expect(await dockerOk(['load', '-i', file])).toBe(`Loaded image: ${image}\n`);
      expect(await inspect(image, '{{.Id}}')).toBe(id);
      expect(await dockerOk(['run', '--rm', image, 'echo', 'loaded'])).toBe('loaded\n');
      await dockerOk(['rmi', image]);
    });
  });

  describe.skipIf(!DOCKERD_HOST || !busyboxInstalled)('images cross between the reference and real dockerd (SHIPSHAPE_DOCKERD_HOST)', () => {
    const reference = cliAt(() => server.url, '1.24');
    const dockerd = cliAt(() => DOCKERD_HOST ?? '', '1.24');
    const image = `shipshape-cli-cross-${process.pid}`;
    afterAll(async () => {
      // Whatever this test made on dockerd goes, also when it failed half-way.
      const leftovers = (await dockerd.docker(['images', '-q', '--no-trunc', image])).stdout.split('\n').filter(Boolean);
      if (leftovers.length > 0) await dockerd.docker(['rmi', '-f', ...new Set(leftovers)]);
      await dockerd.docker(['rm', '-f', `${image}-box`]);
    });

    it('an image saved from the reference loads into dockerd and runs; one dockerd commits, saves, loads into the reference and runs', async () => {
      // The seeded busybox stands for a binary it does not hold: dockerd could not run it. A rootfs
      // with the host's real busybox, imported into the reference, can run on both.
      const rootfs = path.join(dir, 'busybox-rootfs.tar');
      await fs.writeFile(rootfs, await buildBusyboxRootfs(await fs.readFile(BUSYBOX)));
      await reference.dockerOk(['import', '--change', 'CMD ["sh"]', rootfs, `${image}:from-reference`]);
      const fromReference = path.join(dir, 'from-reference.tar');
      await reference.dockerOk(['save', '-o', fromReference, `${image}:from-reference`]);
      expect(await dockerd.dockerOk(['load', '-i', fromReference])).toBe(`Loaded image: ${image}:from-reference\n`);
      expect(await dockerd.dockerOk(['run', '--rm', `${image}:from-reference`, 'echo', 'ran on dockerd'])).toBe('ran on dockerd\n');

      await dockerd.dockerOk(['run', '--name', `${image}-box`, `${image}:from-reference`, 'sh', '-c', 'echo written-on-dockerd > /made-by-dockerd']);
      await dockerd.dockerOk(['commit', `${image}-box`, `${image}:from-dockerd`]);
      const fromDockerd = path.join(dir, 'from-dockerd.tar');
      await dockerd.dockerOk(['save', '-o', fromDockerd, `${image}:from-dockerd`]);
      const dockerdId = (await dockerd.dockerOk(['image', 'inspect', '--format', '{{.Id}}', `${image}:from-dockerd`])).trim();
      expect(await reference.dockerOk(['load', '-i', fromDockerd])).toBe(`Loaded image: ${image}:from-dockerd\n`);
      expect((await reference.dockerOk(['image', 'inspect', '--format', '{{.Id}}', `${image}:from-dockerd`])).trim()).toBe(dockerdId);
      expect(await reference.dockerOk(['run', '--rm', `${image}:from-dockerd`, 'cat', '/made-by-dockerd'])).toBe('written-on-dockerd\n');
      await reference.dockerOk(['rmi', `${image}:from-reference`, `${image}:from-dockerd`]);
    });
  });
});
