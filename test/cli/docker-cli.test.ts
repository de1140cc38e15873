/**
 * The real docker CLI against `shipshape serve --dialect docker` over a Unix socket, pinned to API 1.24
 * and to 1.25 through DOCKER_API_VERSION: every command a user types in daily work, each asserted on
 * what it did (its output, its exit code, the container's state afterwards), not only on exiting 0.
 *
 * `exec -it` goes through a pseudo-terminal made by util-linux `script`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../harness/wait-until.ts';
import { readTar } from '../../reference/engine/filesystem/tar-io.ts';
import { CLI_API_VERSIONS, CLI_NAME, DOCKER, dockerCliInstalled, runCli, SERVE_START_TIMEOUT_MS, serveReference, startCli, type ServedReference } from './docker-cli-process.ts';

const scriptInstalled = spawnSync('script', ['--version']).status === 0;
if (dockerCliInstalled && !scriptInstalled) console.warn('docker exec -it test skipped: util-linux `script` is not installed');

describe.skipIf(!dockerCliInstalled)(`${CLI_NAME} against shipshape serve --dialect docker`, { timeout: 30_000 }, () => {
  let dir: string;
  let server: ServedReference;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-docker-cli-'));
    server = await serveReference(dir);
  }, SERVE_START_TIMEOUT_MS);
  afterAll(async () => {
    await server?.stop();
    await fs.rm(dir, { recursive: true, force: true });
  });

  describe.each(CLI_API_VERSIONS)('DOCKER_API_VERSION=%s', (version) => {
    /** Container names are global to the one server: each version names its own. */
    const named = (name: string) => `cli${version.replace('.', '')}-${name}`;
    const env = () => ({ ...process.env, DOCKER_HOST: server.url, DOCKER_API_VERSION: version, DOCKER_CONFIG: path.join(dir, 'docker-config') });
    const docker = (args: string[], input?: string) => runCli(DOCKER, args, env(), input);
    /** A call that must succeed; its stdout. */
    const dockerOk = async (args: string[]): Promise<string> => {
      const result = await docker(args);
      expect(result.code, `docker ${args.join(' ')}: ${result.stderr}`).toBe(0);
      return result.stdout;
    };
    const inspect = async (container: string, template: string) => (await dockerOk(['inspect', '--format', template, container])).trim();
    const expectGone = async (container: string) => {
      // `container inspect`: a bare `inspect` also asks a swarm manager (which the reference is) for swarm objects, and the CLI refuses some of those below 1.25.
      const result = await docker(['container', 'inspect', container]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/No such container/);
    };

    // One long-running container for the commands that look at or into a running one.
    const box = named('box');
    beforeAll(async () => {
      await dockerOk(['run', '-d', '--name', box, 'busybox', 'sh', '-c', 'mkdir -p /tmp/made; echo x > /tmp/made/file; echo ready; sleep 300']);
      await until(() => docker(['logs', box]), (result) => result.stdout === 'ready\n', { what: `${box} to print ready` });
    });
    afterAll(async () => {
      if (!server) return;
      const leftovers = (await docker(['ps', '-aq', '--filter', `name=cli${version.replace('.', '')}-`])).stdout.split('\n').filter(Boolean);
      if (leftovers.length > 0) await docker(['rm', '-f', ...leftovers]);
    });

    it('run --rm busybox echo hi prints hi and leaves no container; run passes on the exit code and stderr', async () => {
      // stderr is left out: below 1.25 the CLI removes the container itself, and CLI 28 logs a spurious
      // "error removing container: … context canceled" after the DELETE succeeded (on dockerd too).
      expect(await docker(['run', '--rm', '--name', named('hi'), 'busybox', 'echo', 'hi'])).toMatchObject({ code: 0, stdout: 'hi\n' });
      await expectGone(named('hi'));
      const failed = await docker(['run', '--name', named('exit3'), 'busybox', 'sh', '-c', 'echo to-err >&2; exit 3']);
      expect(failed).toEqual({ code: 3, stdout: '', stderr: 'to-err\n' });
      expect(await inspect(named('exit3'), '{{.State.Status}} {{.State.ExitCode}}')).toBe('exited 3');
    });

    it('run -d, ps -a, logs -f and wait follow a container to its exit; logs replays it', async () => {
      const name = named('logs');
      const id = (await dockerOk(['run', '-d', '--name', name, 'busybox', 'sh', '-c', 'echo out; echo err >&2; sleep 1; echo late; exit 3'])).trim();
      expect(id).toMatch(/^[0-9a-f]{64}$/);

      const table = await dockerOk(['ps', '-a']);
      expect(table.split('\n')[0]).toMatch(/^CONTAINER ID +IMAGE +COMMAND +CREATED +STATUS +PORTS +NAMES$/);
      expect(table).toMatch(new RegExp(`^${id.slice(0, 12)} +busybox +"sh -c 'echo out; ec…" +.+ago +Up .+ ${name}$`, 'm'));

      const [followed, waited] = await Promise.all([docker(['logs', '-f', id]), docker(['wait', id])]);
      expect(followed).toEqual({ code: 0, stdout: 'out\nlate\n', stderr: 'err\n' });
      expect(waited).toEqual({ code: 0, stdout: '3\n', stderr: '' });
      expect(await inspect(id, '{{.State.Status}} {{.State.ExitCode}} {{.State.Running}}')).toBe('exited 3 false');

      expect(await docker(['logs', name])).toEqual({ code: 0, stdout: 'out\nlate\n', stderr: 'err\n' });
      const listed = await dockerOk(['ps', '-a', '--no-trunc', '--filter', `id=${id}`, '--format', '{{.ID}}|{{.Names}}|{{.Image}}|{{.Command}}|{{.Status}}']);
      expect(listed).toMatch(new RegExp(`^${id}\\|${name}\\|busybox\\|"sh -c 'echo out; echo err >&2; sleep 1; echo late; exit 3'"\\|Exited \\(3\\) .+ ago\\n$`));
    });

    it('exec runs in the container with separate streams, stdin and its exit code', async () => {
      expect(await docker(['exec', box, 'sh', '-c', 'echo from-exec; echo exec-err >&2; exit 4'])).toEqual({ code: 4, stdout: 'from-exec\n', stderr: 'exec-err\n' });
      expect(await docker(['exec', '-i', box, 'cat'], 'piped\n')).toEqual({ code: 0, stdout: 'piped\n', stderr: '' });
    });

    it.skipIf(!scriptInstalled)('exec -it runs a shell on a pseudo-terminal: typed input in, output and exit code out', async () => {
      // `script -e` returns the command's exit code; the typed `$HOME` only turns into /root in the container.
      const command = `${DOCKER} exec -it ${box} sh`;
      const result = await runCli('script', ['-qec', command, '/dev/null'], env(), 'echo typed-$HOME\nexit 5\n');
      expect(result.stdout).toContain('typed-/root');
      expect(result.code, result.stdout).toBe(5);
    });

    it('attach carries stdin in and stdout out, and ends with the container, passing on its exit code', async () => {
      const name = named('attach');
      await dockerOk(['run', '-d', '-i', '--name', name, 'busybox', 'sh', '-c', 'cat; exit 7']);
      const attached = startCli(DOCKER, ['attach', name], env());
      attached.write('through-attach\n');
      await until(async () => attached.stdout(), (stdout) => stdout === 'through-attach\n', { what: 'the attached cat to echo the input' });
      await dockerOk(['kill', name]);
      expect(await attached.done).toEqual({ code: 137, stdout: 'through-attach\n', stderr: '' });
    });

    it('cp copies a file into the container and files and directories out of it', async () => {
      const local = path.join(dir, `cp-${version}`);
      await fs.mkdir(local);
      await fs.writeFile(path.join(local, 'in.txt'), 'copied in\n');
      await dockerOk(['cp', path.join(local, 'in.txt'), `${box}:/tmp/in.txt`]);
      await dockerOk(['cp', `${box}:/tmp/in.txt`, path.join(local, 'back.txt')]);
      expect(await fs.readFile(path.join(local, 'back.txt'), 'utf8')).toBe('copied in\n');
      await dockerOk(['cp', `${box}:/tmp/made`, local]);
      expect(await fs.readFile(path.join(local, 'made/file'), 'utf8')).toBe('x\n');
      await dockerOk(['cp', `${box}:/etc/passwd`, local]);
      expect(await fs.readFile(path.join(local, 'passwd'), 'utf8')).toMatch(/^root:x:0:0:/);
    });

    it('top lists the container process', async () => {
      const lines = (await dockerOk(['top', box])).trim().split('\n');
      expect(lines[0]).toMatch(/^UID +PID +PPID +C +STIME +TTY +TIME +CMD$/);
      expect(lines.slice(1)).toContainEqual(expect.stringMatching(/^root +\d+ +\d+ .* sleep 300$/));
    });

    it('stats --no-stream prints one row for the container and returns', async () => {
      const id = await inspect(box, '{{.Id}}');
      const lines = (await dockerOk(['stats', '--no-stream', box])).trim().split('\n');
      expect(lines[0]).toMatch(/^CONTAINER ID +NAME +CPU % +MEM USAGE \/ LIMIT +MEM % +NET I\/O +BLOCK I\/O +PIDS$/);
      expect(lines.slice(1)).toEqual([expect.stringMatching(new RegExp(`^${id.slice(0, 12)} +${box} +\\d+\\.\\d+% +\\S+ / \\S+ +\\d+\\.\\d+% +`))]);
    });

    it('diff lists what the container added and changed', async () => {
      const changes = (await dockerOk(['diff', box])).trim().split('\n');
      expect(changes).toEqual(expect.arrayContaining(['C /tmp', 'A /tmp/made', 'A /tmp/made/file']));
    });

    it('export writes a tar of the container filesystem', async () => {
      const file = path.join(dir, `export-${version}.tar`);
      await dockerOk(['export', '-o', file, box]);
      const members = await readTar(await fs.readFile(file));
      const names = members.map((member) => member.header.name.replace(/\/$/, ''));
      expect(names).toEqual(expect.arrayContaining(['bin/busybox', 'etc/passwd', 'tmp/made/file']));
      expect(members.find((member) => member.header.name === 'tmp/made/file')?.data.toString()).toBe('x\n');
    });

    it('pause and unpause freeze and thaw the container', async () => {
      await dockerOk(['pause', box]);
      expect(await inspect(box, '{{.State.Status}} {{.State.Paused}} {{.State.Running}}')).toBe('paused true true');
      expect(await dockerOk(['ps', '--filter', `name=${box}`, '--format', '{{.Status}}'])).toMatch(/^Up .+ \(Paused\)\n$/);
      await dockerOk(['unpause', box]);
      expect(await inspect(box, '{{.State.Status}} {{.State.Paused}}')).toBe('running false');
    });

    it('update changes the resources of a running container', async () => {
      expect(await dockerOk(['update', '--memory', '64m', '--memory-swap', '128m', '--cpu-shares', '512', box])).toBe(`${box}\n`);
      expect(await inspect(box, '{{.HostConfig.Memory}} {{.HostConfig.MemorySwap}} {{.HostConfig.CpuShares}}')).toBe('67108864 134217728 512');
    });

    it('rename gives the container a new name and frees the old one', async () => {
      const [before, after] = [named('before'), named('after')];
      const id = (await dockerOk(['create', '--name', before, 'busybox', 'true'])).trim();
      await dockerOk(['rename', before, after]);
      expect(await inspect(after, '{{.Id}} {{.Name}}')).toBe(`${id} /${after}`);
      await expectGone(before);
    });

    it('restart, stop, kill and rm -f drive a container through its lifecycle', async () => {
      const name = named('lifecycle');
      await dockerOk(['run', '-d', '--name', name, 'busybox', 'sleep', '300']);
      const firstStart = await inspect(name, '{{.State.StartedAt}}');

      // PID 1 ignores SIGTERM: restart and stop wait their 1 s before the kill.
      let started = performance.now();
      expect(await dockerOk(['restart', '-t', '1', name])).toBe(`${name}\n`);
      expect(performance.now() - started).toBeGreaterThanOrEqual(900);
      expect(await inspect(name, '{{.State.Status}}')).toBe('running');
      expect(await inspect(name, '{{.State.StartedAt}}')).not.toBe(firstStart);

      started = performance.now();
      await dockerOk(['stop', '-t', '1', name]);
      expect(performance.now() - started).toBeGreaterThanOrEqual(900);
      expect(await inspect(name, '{{.State.Status}} {{.State.ExitCode}}')).toBe('exited 137');

      await dockerOk(['start', name]);
      await dockerOk(['kill', '--signal', 'KILL', name]);
      expect(await inspect(name, '{{.State.Status}} {{.State.ExitCode}}')).toBe('exited 137');

      await dockerOk(['start', name]);
      expect(await inspect(name, '{{.State.Running}}')).toBe('true');
      expect(await dockerOk(['rm', '-f', name])).toBe(`${name}\n`);
      await expectGone(name);
      expect(await dockerOk(['ps', '-aq', '--filter', `name=${name}`])).toBe('');
    });
  });
});
