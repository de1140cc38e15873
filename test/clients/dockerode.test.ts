/**
 * dockerode, the most used Node client, at API 1.25: the capabilities of issue 18 through its own
 * calls (and docker-modem's hijacked exec stream), named as the Python SDK's scenarios are. Each runs
 * on real dockerd first when SHIPSHAPE_DOCKERD_HOST names one (the expectation), then on the reference;
 * everything a scenario makes it removes again.
 */
import { PassThrough, Readable, type Duplex } from 'node:stream';
import path from 'node:path';
import Docker from 'dockerode';
import tar from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { until } from '../../harness/wait-until.ts';
import { listedScenarios } from './known-gaps.ts';
import { freePort, runScenario, TARGET_KINDS, targetForSuite, type ClientTarget } from './targets.ts';

const CLIENT = 'dockerode';
const SECOND = 1_000_000_000;
/** the swarm scenarios on dockerd wait for real tasks; the reference answers in milliseconds */
const SCENARIO_TIMEOUT_MS = 120_000;
const TASK_WAIT = { timeoutMs: 60_000, intervalMs: 250 };

function clientOf(url: string): Docker {
  return new Docker({ socketPath: url.replace(/^unix:\/\//, ''), version: 'v1.25' });
}

/** What a scenario made, removed in reverse order whatever happened; a failed removal hides nothing. */
class Made {
  private readonly removals: (() => Promise<unknown>)[] = [];
  add(remove: () => Promise<unknown>): void {
    this.removals.push(remove);
  }
  async removeAll(): Promise<void> {
    for (const remove of this.removals.reverse()) await remove().catch(() => undefined);
  }
}

interface Scenario {
  /** a node outside any swarm */
  outsideSwarm?: boolean;
  run(docker: Docker, target: ClientTarget, made: Made, named: (name: string) => string): Promise<void>;
}

async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
  } catch (error) {
    return (error as { statusCode?: number }).statusCode ?? -1;
  }
  return 200;
}

/** Runs a hijacked exec and collects its demultiplexed output. */
async function execOutput(docker: Docker, container: Docker.Container, options: Docker.ExecCreateOptions): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const exec = await container.exec({ AttachStdout: true, AttachStderr: true, ...options });
  const stream = (await exec.start({ hijack: true, stdin: false })) as Duplex;
  const [stdout, stderr] = [new PassThrough(), new PassThrough()];
  const chunks = { stdout: '', stderr: '' };
  stdout.on('data', (chunk: Buffer) => (chunks.stdout += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (chunks.stderr += chunk.toString()));
  docker.modem.demuxStream(stream, stdout, stderr);
  await new Promise((resolve, reject) => stream.on('end', resolve).on('close', resolve).on('error', reject));
  const { ExitCode } = await exec.inspect();
  return { exitCode: ExitCode, ...chunks };
}

async function started(docker: Docker, made: Made, options: Docker.ContainerCreateOptions): Promise<Docker.Container> {
  const container = await docker.createContainer(options);
  made.add(() => container.remove({ force: true, v: true }));
  await container.start();
  return container;
}

async function removeService(docker: Docker, service: Docker.Service): Promise<void> {
  await service.remove();
  // its task containers hold its networks until they are gone
  await until(() => docker.listContainers({ all: true, filters: { label: [`com.docker.swarm.service.id=${service.id}`] } }), (left) => left.length === 0, { what: `the containers of service ${service.id} to go`, ...TASK_WAIT });
}

async function runningTasks(docker: Docker, service: string): Promise<unknown[]> {
  const tasks = (await docker.listTasks({ filters: { service: [service], 'desired-state': ['running'] } })) as { Status: { State: string } }[];
  return tasks.every((task) => task.Status.State === 'running') ? tasks : [];
}

/** A /24 under 10.0.0.0/8 that no network on the target uses; its first three octets. */
async function freeSubnet(docker: Docker): Promise<string> {
  const used = new Set((await docker.listNetworks()).flatMap((network) => (network.IPAM?.Config ?? []).map((config) => config.Subnet)));
  for (let attempt = 0; attempt < 200; attempt++) {
    const prefix = `10.${((process.pid + attempt * 11) % 200) + 20}.${(Math.floor(process.pid / 200) + attempt) % 250}`;
    if (!used.has(`${prefix}.0/24`)) return prefix;
  }
  throw new Error('no free 10.x.y.0/24 subnet');
}

async function tarOf(files: Record<string, string>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(files)) pack.entry({ name }, content);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The content of the one file a GET archive tar holds. */
async function fileOf(archive: NodeJS.ReadableStream): Promise<string> {
  const extract = tar.extract();
  const contents: string[] = [];
  extract.on('entry', (_header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk) => chunks.push(chunk as Buffer));
    stream.on('end', () => {
      contents.push(Buffer.concat(chunks).toString('utf8'));
      next();
    });
  });
  await new Promise((resolve, reject) => {
    extract.on('finish', () => resolve(undefined));
    extract.on('error', reject);
    archive.pipe(extract);
  });
  expect(contents).toHaveLength(1);
  return contents[0] ?? '';
}

/** The build's log (its `stream` lines) and the id it built; a build error fails. */
async function built(docker: Docker, context: Buffer, options: Record<string, unknown>): Promise<{ log: string; id: string }> {
  const stream = await docker.buildImage(Readable.from([context]), options);
  const messages = await new Promise<{ stream?: string; error?: string; aux?: { ID: string } }[]>((resolve, reject) => docker.modem.followProgress(stream, (error, result) => (error ? reject(error) : resolve(result))));
  const failed = messages.find((message) => message.error);
  if (failed) throw new Error(`build failed: ${failed.error}`);
  const log = messages.map((message) => message.stream ?? '').join('');
  return { log, id: /Successfully built ([0-9a-f]+)/.exec(log)?.[1] ?? '' };
}

const SCENARIOS: Record<string, Scenario> = {
  swarm_lifecycle: {
    outsideSwarm: true,
    async run(docker, _target, made) {
      expect(await statusOf(docker.swarmLeave({}))).toBe(503);
      const nodeId = (await docker.swarmInit({ ListenAddr: `127.0.0.1:${await freePort()}`, AdvertiseAddr: '127.0.0.1' })) as string;
      made.add(() => docker.swarmLeave({ force: true }));
      expect(nodeId).toMatch(/^[0-9a-z]{25}$/);
      expect(await statusOf(docker.swarmInit({ ListenAddr: `127.0.0.1:${await freePort()}`, AdvertiseAddr: '127.0.0.1' }))).toBe(503);
      const swarm = (await docker.swarmInspect()) as { Version: { Index: number }; Spec: { Raft: Record<string, unknown> } & Record<string, unknown> };
      await docker.swarmUpdate({ ...swarm.Spec, Raft: { ...swarm.Spec.Raft, SnapshotInterval: 5000 }, version: swarm.Version.Index });
      expect(((await docker.swarmInspect()) as typeof swarm).Spec.Raft.SnapshotInterval).toBe(5000);
      expect(await statusOf(docker.swarmLeave({}))).toBe(503);
      await docker.swarmLeave({ force: true });
      expect(((await docker.info()) as { Swarm: { LocalNodeState: string } }).Swarm.LocalNodeState).toBe('inactive');
    },
  },

  secrets: {
    async run(docker, _target, made, named) {
      const { id } = (await docker.createSecret({ Name: named('secret'), Data: Buffer.from('top secret').toString('base64'), Labels: { a: '1' } })) as { id: string };
      const secret = docker.getSecret(id);
      made.add(() => secret.remove());
      const inspected = (await secret.inspect()) as unknown as { Version: { Index: number }; Spec: Record<string, unknown> };
      expect(inspected.Spec).toEqual({ Name: named('secret'), Labels: { a: '1' } });
      await secret.update({ Name: named('secret'), Labels: { a: '2' }, version: inspected.Version.Index });
      const updated = (await secret.inspect()) as unknown as typeof inspected;
      expect(updated.Spec.Labels).toEqual({ a: '2' });
      // the spec sent back whole, its Data included: only a changed Data is refused
      await secret.update({ Name: named('secret'), Labels: { a: '3' }, Data: Buffer.from('top secret').toString('base64'), version: updated.Version.Index });
      const again = (await secret.inspect()) as unknown as typeof inspected;
      expect(again.Spec.Labels).toEqual({ a: '3' });
      expect(await statusOf(secret.update({ Name: named('secret'), Labels: { a: '4' }, Data: Buffer.from('other').toString('base64'), version: again.Version.Index }))).toBe(400);
      expect((await docker.listSecrets({ filters: { name: [named('secret')] } })).map((listed) => listed.ID)).toEqual([id]);
      await secret.remove();
      expect(await statusOf(secret.inspect())).toBe(404);
    },
  },

  configs: {
    async run(docker, _target, made, named) {
      const data = Buffer.from('listen 8080\n').toString('base64');
      const { id } = (await docker.createConfig({ Name: named('config'), Data: data, Labels: { a: '1' } })) as { id: string };
      const config = docker.getConfig(id);
      made.add(() => config.remove());
      const inspected = (await config.inspect()) as unknown as { Version: { Index: number }; Spec: Record<string, unknown> };
      expect(inspected.Spec).toEqual({ Name: named('config'), Labels: { a: '1' }, Data: data });
      await config.update({ Name: named('config'), Labels: { a: '2' }, Data: data, version: inspected.Version.Index });
      expect(((await config.inspect()) as unknown as typeof inspected).Spec.Labels).toEqual({ a: '2' });
      expect((await docker.listConfigs({ filters: { name: [named('config')] } })).map((listed) => listed.ID)).toEqual([id]);
      await config.remove();
      expect(await statusOf(config.inspect())).toBe(404);
    },
  },

  prune_and_df: {
    async run(docker, target, made, named) {
      const label = `shipshape-clients=${named('prune')}`;
      const stopped = await docker.createContainer({ Image: target.image, Cmd: ['true'], Labels: { 'shipshape-clients': named('prune') } });
      made.add(() => stopped.remove({ force: true }));
      await docker.createVolume({ Name: named('prune-vol'), Labels: { 'shipshape-clients': named('prune') } });
      made.add(() => docker.getVolume(named('prune-vol')).remove());
      const pruned = await docker.pruneContainers({ filters: { label: [label] } });
      expect(pruned).toEqual({ ContainersDeleted: [stopped.id], SpaceReclaimed: expect.any(Number) });
      expect(await docker.pruneVolumes({ filters: { label: [label] } })).toEqual({ VolumesDeleted: [named('prune-vol')], SpaceReclaimed: expect.any(Number) });
      const usage = (await docker.df()) as { LayersSize: number; Images: unknown[]; Containers: unknown[]; Volumes: unknown[] };
      expect(usage).toMatchObject({ LayersSize: expect.any(Number), Images: expect.any(Array), Containers: expect.any(Array), Volumes: expect.any(Array) });
    },
  },

  create_inspect_fields: {
    async run(docker, target, made, named) {
      const container = await started(docker, made, {
        Image: target.image, Cmd: ['sleep', '300'], name: named('fields'), StopTimeout: 7, ExposedPorts: { '8080/tcp': {} },
        HostConfig: { Init: true, Runtime: 'runc', Tmpfs: { '/scratch': 'size=1m' }, Memory: 64 << 20, PortBindings: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }] } },
      });
      const inspected = await container.inspect();
      expect(inspected.HostConfig).toMatchObject({ Init: true, Runtime: 'runc', Tmpfs: { '/scratch': 'size=1m' }, Memory: 64 << 20, MemorySwap: 128 << 20 });
      expect((inspected.Config as { StopTimeout?: number }).StopTimeout).toBe(7);
      expect(inspected.NetworkSettings.Ports['8080/tcp']).toEqual([{ HostIp: '127.0.0.1', HostPort: expect.stringMatching(/^\d+$/) }]);
    },
  },

  healthcheck: {
    async run(docker, target, made, named) {
      const container = await started(docker, made, {
        Image: target.image, Cmd: ['sleep', '300'], name: named('health'),
        Healthcheck: { Test: ['CMD-SHELL', 'exit 1'], Interval: SECOND / 2, Timeout: 2 * SECOND, Retries: 2 },
      });
      const health = await until(async () => (await container.inspect()).State.Health, (seen) => seen?.Status === 'unhealthy', { what: 'unhealthy', timeoutMs: 30_000, intervalMs: 200 });
      expect(health?.FailingStreak).toBeGreaterThanOrEqual(2);
      expect(health?.Log.at(-1)).toMatchObject({ ExitCode: 1 });
    },
  },

  bind_mounts_shared: {
    async run(docker, target, made, named) {
      const source = path.join(target.workdir, named('bind'));
      const writer = await started(docker, made, { Image: target.image, Cmd: ['sh', '-c', 'echo shared > /data/file'], HostConfig: { Binds: [`${source}:/data`] } });
      expect(await writer.wait()).toMatchObject({ StatusCode: 0 });
      const reader = await started(docker, made, { Image: target.image, Cmd: ['cat', '/mnt/file'], HostConfig: { Binds: [`${source}:/mnt:ro`] } });
      expect(await reader.wait()).toMatchObject({ StatusCode: 0 });
      expect((await reader.logs({ stdout: true, follow: false })).toString()).toContain('shared\n');
    },
  },

  exec_env_user: {
    async run(docker, target, made, named) {
      const box = await started(docker, made, { Image: target.image, Cmd: ['sleep', '300'], name: named('exec') });
      expect(await execOutput(docker, box, { Cmd: ['sh', '-c', 'echo $X; echo err >&2; exit 2'], Env: ['X=from-env'] })).toEqual({ exitCode: 2, stdout: 'from-env\n', stderr: 'err\n' });
      expect(await execOutput(docker, box, { Cmd: ['id', '-u'], User: 'nobody' })).toEqual({ exitCode: 0, stdout: '65534\n', stderr: '' });
    },
  },

  network_files: {
    async run(docker, target, made, named) {
      const box = await started(docker, made, { Image: target.image, Cmd: ['sleep', '300'], Hostname: 'files-host', HostConfig: { ExtraHosts: ['extra.example:10.1.2.3'] }, name: named('files') });
      const files: Record<string, string> = {};
      for (const path of ['/etc/hostname', '/etc/hosts', '/etc/resolv.conf']) files[path] = await fileOf((await box.getArchive({ path })) as NodeJS.ReadableStream);
      expect(files['/etc/hostname']).toBe('files-host\n');
      expect(files['/etc/hosts']).toMatch(/^127\.0\.0\.1\tlocalhost\n[^]*^10\.1\.2\.3\textra\.example\n[^]*\tfiles-host\n$/m);
      expect(files['/etc/resolv.conf']).toMatch(/^nameserver \S+$/m);
      expect(await execOutput(docker, box, { Cmd: ['cat', '/etc/hostname'] })).toEqual({ exitCode: 0, stdout: 'files-host\n', stderr: '' });
    },
  },

  tty_attach_wc: {
    // dockerode's own "attach with tty enable writing 1000 bytes": write, wait, and read what came by then
    async run(docker, target, made, named) {
      const box = await docker.createContainer({ Image: target.image, Cmd: ['sh', '-c', 'wc -c'], AttachStdin: true, OpenStdin: true, Tty: true, name: named('tty') });
      made.add(() => box.remove({ force: true }));
      const stream = (await box.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true })) as Duplex;
      let output = '';
      stream.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')));
      await box.start();
      const typed = 'x'.repeat(1000);
      stream.write(`${typed}\n\x04`);
      expect(await box.wait()).toMatchObject({ StatusCode: 0 });
      expect(output).toBe(`${typed}\r\n1001\r\n`);
      stream.destroy();
    },
  },

  network_endpoint_settings: {
    async run(docker, target, made, named) {
      const prefix = await freeSubnet(docker);
      const network = await docker.createNetwork({ Name: named('net'), IPAM: { Config: [{ Subnet: `${prefix}.0/24`, Gateway: `${prefix}.1`, AuxiliaryAddresses: { spare: `${prefix}.2` } }] } });
      made.add(() => network.remove());
      expect(((await network.inspect()) as { IPAM: { Config: unknown[] } }).IPAM.Config).toEqual([{ Subnet: `${prefix}.0/24`, Gateway: `${prefix}.1`, AuxiliaryAddresses: { spare: `${prefix}.2` } }]);
      const container = await started(docker, made, {
        Image: target.image, Cmd: ['sleep', '300'], name: named('ep'), HostConfig: { NetworkMode: named('net') },
        NetworkingConfig: { EndpointsConfig: { [named('net')]: { Aliases: ['db'], IPAMConfig: { IPv4Address: `${prefix}.10` } } } },
      });
      const endpoint = (await container.inspect()).NetworkSettings.Networks[named('net')];
      expect(endpoint).toMatchObject({ IPAMConfig: { IPv4Address: `${prefix}.10` }, IPAddress: `${prefix}.10` });
      expect(endpoint?.Aliases).toContain('db');
    },
  },

  services_mode_scale: {
    async run(docker, target, made, named) {
      const service = await docker.createService({
        Name: named('svc'), Mode: { Replicated: { Replicas: 1 } },
        // a short grace period: PID 1 ignores SIGTERM, and the removal would wait the default 10 s (on dockerd too)
        TaskTemplate: { ContainerSpec: { Image: target.image, Command: ['sleep', '300'], Hostname: 'svc-host', TTY: true, StopGracePeriod: SECOND } },
      });
      const ID = service.id;
      made.add(() => removeService(docker, service));
      await until(() => runningTasks(docker, ID), (tasks) => tasks.length === 1, { what: 'one running task', ...TASK_WAIT });
      const spec = (await service.inspect()) as { Version: { Index: number }; Spec: { TaskTemplate: { ContainerSpec: Record<string, unknown> } } & Record<string, unknown> };
      expect(spec.Spec.TaskTemplate.ContainerSpec).toMatchObject({ Hostname: 'svc-host', TTY: true });
      const answer = await service.update({ ...spec.Spec, Mode: { Replicated: { Replicas: 2 } }, version: spec.Version.Index });
      expect(answer).toHaveProperty('Warnings');
      await until(() => runningTasks(docker, ID), (tasks) => tasks.length === 2, { what: 'two running tasks', ...TASK_WAIT });
    },
  },

  service_logs: {
    async run(docker, target, made, named) {
      const service = await docker.createService({
        Name: named('logged'), Mode: { Replicated: { Replicas: 1 } },
        TaskTemplate: { ContainerSpec: { Image: target.image, Command: ['sh', '-c', 'echo from-the-task; sleep 300'], StopGracePeriod: SECOND } },
      });
      made.add(() => removeService(docker, service));
      await until(() => runningTasks(docker, service.id), (tasks) => tasks.length === 1, { what: 'one running task', ...TASK_WAIT });
      const logged = async () => {
        const body = (await service.logs({ stdout: true, follow: false })) as unknown as Buffer;
        const stdout = new PassThrough();
        const chunks: Buffer[] = [];
        stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
        docker.modem.demuxStream(Readable.from([body]), stdout, new PassThrough());
        await new Promise((resolve) => setImmediate(resolve));
        return Buffer.concat(chunks).toString('utf8');
      };
      expect(await until(logged, (text) => text !== '', { what: 'the task\'s log', ...TASK_WAIT })).toBe('from-the-task\n');
    },
  },

  build_cache_from: {
    async run(docker, target, made, named) {
      const context = await tarOf({ Dockerfile: `FROM ${target.image}\nRUN echo built > /built\n` });
      const first = await built(docker, context, { t: named('cache-a') });
      made.add(() => docker.getImage(named('cache-a')).remove({ force: true }));
      const cached = await built(docker, context, { t: named('cache-b'), cachefrom: JSON.stringify([named('cache-a')]) });
      made.add(() => docker.getImage(named('cache-b')).remove({ force: true }));
      expect([cached.id, cached.log]).toEqual([first.id, expect.stringContaining('Using cache')]);
      // an empty list is no cachefrom (the docker CLI 20.10 sends it with every build)
      const fromNothing = await built(docker, context, { t: named('cache-d'), cachefrom: '[]' });
      made.add(() => docker.getImage(named('cache-d')).remove({ force: true }));
      expect([fromNothing.id, fromNothing.log]).toEqual([first.id, expect.stringContaining('Using cache')]);
      const fresh = await built(docker, context, { t: named('cache-c'), cachefrom: JSON.stringify([target.image]) });
      made.add(() => docker.getImage(named('cache-c')).remove({ force: true }));
      expect(fresh.id).not.toBe(first.id);
      expect(fresh.log).not.toContain('Using cache');
    },
  },

  plugins: {
    async run(docker, target, made, named) {
      const local = `${named('plugin')}:latest`;
      const plugin = docker.getPlugin(local, target.pluginRemote);
      const privileges = (await plugin.privileges()) as unknown[];
      const pull = await plugin.pull({ _query: { remote: target.pluginRemote, name: local }, _body: privileges });
      made.add(() => plugin.remove({ force: true }));
      await new Promise((resolve, reject) => docker.modem.followProgress(pull as NodeJS.ReadableStream, (error) => (error ? reject(error) : resolve(undefined))));
      expect(await plugin.inspect()).toMatchObject({ Name: local, Enabled: false });
      await plugin.remove();
      expect(await statusOf(plugin.inspect())).toBe(404);
    },
  },
};

describe('dockerode scenarios', () => {
  it('every known gap listed for dockerode names one of its scenarios', () => {
    expect(listedScenarios(CLIENT).filter((scenario) => !(scenario in SCENARIOS))).toEqual([]);
  });

  describe.each(TARGET_KINDS)('against %s', { timeout: SCENARIO_TIMEOUT_MS }, (kind) => {
    const target = targetForSuite(kind, 'shipshape-dockerode-');
    it.each(Object.keys(SCENARIOS))('%s', async (name) => {
      const scenario = SCENARIOS[name] as Scenario;
      const url = scenario.outsideSwarm ? target().outsideSwarmUrl : target().url;
      if (!url) return console.warn(`${name} skipped on ${kind}: no node outside a swarm`);
      const docker = clientOf(url);
      const made = new Made();
      await runScenario(CLIENT, name, target(), async () => {
        try {
          await scenario.run(docker, target(), made, (object) => `ssnode${process.pid}-${object}`);
        } finally {
          await made.removeAll();
        }
      });
    });
  });
});
