import { describe, expect, test } from 'vitest';
import { EngineModel } from '../../reference/engine/model/engine-model.ts';
import {
  AmbiguousReferenceError,
  ConflictError,
  InvalidParameterError,
  MissingCommandError,
  NotFoundError,
} from '../../reference/engine/model/common/errors.ts';
import { completeConfig } from '../../reference/engine/model/containers/container-config.ts';
import { emptyImageConfig, type Image } from '../../reference/engine/model/images/image.ts';
import { busyboxImage } from '../../reference/engine/model/images/busybox-image.ts';

const START = new Date('2024-03-01T12:00:00.000Z');

/** ids `<prefix>000…1`, `<prefix>000…2`, …: predictable, and sharing a prefix when asked to. */
function sequentialIds(prefix = 'a') {
  let next = 0;
  return () => `${prefix}${(++next).toString(16).padStart(64 - prefix.length, '0')}`;
}

function model(prefix?: string) {
  let now = START.getTime();
  return new EngineModel({ clock: () => new Date((now += 1000)), ids: sequentialIds(prefix) });
}

describe('containers.create', () => {
  test('takes the id from the id source, the time from the clock, and the state "created"', () => {
    const engine = model();
    const container = engine.containers.create({ name: 'web', config: { Image: 'busybox', Cmd: ['true'] } });
    expect(container.id).toBe(`a${'0'.repeat(62)}1`);
    expect(container.name).toBe('/web');
    expect(container.created.toISOString()).toBe('2024-03-01T12:00:01.000Z');
    expect(container.imageId).toBe(engine.images.find('busybox:latest').id);
    expect(container.state).toEqual({
      Status: 'created', Running: false, Paused: false, Restarting: false, OOMKilled: false, Dead: false,
      Pid: 0, ExitCode: 0, Error: '', StartedAt: '0001-01-01T00:00:00Z', FinishedAt: '0001-01-01T00:00:00Z',
    });
  });

  test('completes the config from the image: command, PATH, hostname from the id', () => {
    const container = model().containers.create({ config: { Image: 'busybox', Env: ['A=1'] } });
    expect(container.config.Cmd).toEqual(['sh']);
    expect(container.config.Env).toEqual(['A=1', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin']);
    expect(container.config.Hostname).toBe(container.id.slice(0, 12));
    expect(container.path).toBe('sh');
    expect(container.args).toEqual([]);
  });

  test('path and args come from the entrypoint first, then the command', () => {
    const container = model().containers.create({ config: { Image: 'busybox', Entrypoint: ['/bin/sh', '-c'], Cmd: ['echo hi'] } });
    expect([container.path, container.args]).toEqual(['/bin/sh', ['-c', 'echo hi']]);
  });

  test('generates a docker-style name when none is given, deterministically', () => {
    const first = model().containers.create({ config: { Image: 'busybox' } });
    const again = model().containers.create({ config: { Image: 'busybox' } });
    expect(first.name).toMatch(/^\/[a-z]+_[a-z]+$/);
    expect(again.name).toBe(first.name);
  });

  test('generated names never collide with a taken one', () => {
    const engine = model();
    const names = new Set(Array.from({ length: 50 }, () => engine.containers.create({ config: { Image: 'busybox' } }).name));
    expect(names.size).toBe(50);
  });

  test.each(['a', '-leading-dash', 'has space', 'slash/inside', '.dot-first'])('refuses the invalid name %j', (name) => {
    expect(() => model().containers.create({ name, config: { Image: 'busybox' } })).toThrow(InvalidParameterError);
  });

  test.each(['ab', '/with-slash', 'dots.and_under-scores', '9lives'])('accepts the valid name %j', (name) => {
    expect(model().containers.create({ name, config: { Image: 'busybox' } }).name).toBe(name.startsWith('/') ? name : `/${name}`);
  });

  test('a name in use is a conflict that names the holder', () => {
    const engine = model();
    const holder = engine.containers.create({ name: 'x1', config: { Image: 'busybox' } });
    expect(() => engine.containers.create({ name: '/x1', config: { Image: 'busybox' } })).toThrow(
      new ConflictError(
        `Conflict. The container name "/x1" is already in use by container "${holder.id}". You have to remove (or rename) that container to be able to reuse that name.`,
      ),
    );
  });

  test('an unknown image is not found, spelled with its tag', () => {
    expect(() => model().containers.create({ config: { Image: 'nosuch' } })).toThrow(new NotFoundError('No such image: nosuch:latest'));
  });

  test('unknown HostConfig fields are dropped, known ones kept over the defaults', () => {
    const container = model().containers.create({ config: { Image: 'busybox' }, hostConfig: { Memory: 1024, Bogus: true } });
    expect(container.hostConfig.Memory).toBe(1024);
    expect(container.hostConfig).not.toHaveProperty('Bogus');
    expect(container.hostConfig.NetworkMode).toBe('default');
    expect(Object.keys(container.networks)).toEqual(['bridge']);
  });
});

describe('completeConfig', () => {
  const image = (Cmd: string[] | null, Entrypoint: string[] | null = null): Image => ({
    ...busyboxImage(),
    config: { ...emptyImageConfig(), Cmd, Entrypoint, Labels: { from: 'image', both: 'image' }, WorkingDir: '/w' },
  });

  test('no command in the request nor the image is MissingCommandError', () => {
    expect(() => completeConfig({ Image: 'x' }, image(null), 'f'.repeat(64))).toThrow(MissingCommandError);
  });

  test('an image entrypoint alone is enough, and the request labels win over the image ones', () => {
    const config = completeConfig({ Image: 'x', Labels: { both: 'request' } }, image(null, ['/run']), 'f'.repeat(64));
    expect(config.Entrypoint).toEqual(['/run']);
    expect(config.Labels).toEqual({ from: 'image', both: 'request' });
    expect(config.WorkingDir).toBe('/w');
  });

  test('a request entrypoint does not inherit the image command', () => {
    const config = completeConfig({ Image: 'x', Entrypoint: ['/bin/true'] }, image(['sh']), 'f'.repeat(64));
    expect(config.Cmd).toBeNull();
  });
});

describe('containers.find', () => {
  test('by full id, name with or without slash, and unique prefix', () => {
    const engine = model();
    const container = engine.containers.create({ name: 'db', config: { Image: 'busybox' } });
    for (const reference of [container.id, 'db', '/db', container.id.slice(0, 12)]) {
      expect(engine.containers.find(reference)).toBe(container);
    }
  });

  test('a prefix shared by two containers is ambiguous, not a guess', () => {
    const engine = model('abc');
    engine.containers.create({ config: { Image: 'busybox' } });
    engine.containers.create({ config: { Image: 'busybox' } });
    expect(() => engine.containers.find('abc')).toThrow(AmbiguousReferenceError);
  });

  test('a name wins over an id prefix it happens to look like', () => {
    const engine = model('ab');
    const first = engine.containers.create({ config: { Image: 'busybox' } });
    const named = engine.containers.create({ name: first.id.slice(0, 10), config: { Image: 'busybox' } });
    expect(engine.containers.find(first.id.slice(0, 10))).toBe(named);
  });

  test('nothing matching is NotFoundError naming what was asked', () => {
    expect(() => model().containers.find('ghost')).toThrow(new NotFoundError('No such container: ghost'));
  });
});

describe('containers.list and remove', () => {
  function threeContainers() {
    const engine = model();
    const made = ['one', 'two', 'three'].map((name) =>
      engine.containers.create({ name, config: { Image: 'busybox', Labels: { tier: name === 'two' ? 'db' : 'web' } } }),
    );
    return { engine, made };
  }

  test('by default lists running containers only; all lists every one, newest first', () => {
    const { engine } = threeContainers();
    expect(engine.containers.list()).toEqual([]);
    expect(engine.containers.list({ all: true }).map((c) => c.name)).toEqual(['/three', '/two', '/one']);
  });

  test('limit lists the last created whatever their state', () => {
    const { engine } = threeContainers();
    expect(engine.containers.list({ limit: 2 }).map((c) => c.name)).toEqual(['/three', '/two']);
  });

  test('filters: label, name pattern, id prefix pattern, status (which implies all)', () => {
    const { engine, made } = threeContainers();
    expect(engine.containers.list({ all: true, filters: { label: ['tier=db'] } }).map((c) => c.name)).toEqual(['/two']);
    expect(engine.containers.list({ all: true, filters: { label: ['tier'] } })).toHaveLength(3);
    expect(engine.containers.list({ all: true, filters: { name: ['^/t'] } }).map((c) => c.name)).toEqual(['/three', '/two']);
    expect(engine.containers.list({ all: true, filters: { id: [made[0]?.id ?? ''] } }).map((c) => c.name)).toEqual(['/one']);
    expect(engine.containers.list({ filters: { status: ['created'] } })).toHaveLength(3);
    expect(engine.containers.list({ filters: { status: ['running'] } })).toHaveLength(0);
  });

  test('an unknown status filter value is refused', () => {
    expect(() => model().containers.list({ filters: { status: ['sleeping'] } })).toThrow(InvalidParameterError);
  });

  test('remove frees the name', async () => {
    const { engine } = threeContainers();
    await engine.lifecycle.remove(engine.containers.find('one'));
    expect(() => engine.containers.find('one')).toThrow(NotFoundError);
    expect(engine.containers.create({ name: 'one', config: { Image: 'busybox' } }).name).toBe('/one');
  });

  test('reset forgets every container', () => {
    const { engine } = threeContainers();
    engine.reset();
    expect(engine.containers.list({ all: true })).toEqual([]);
    expect(engine.images.count).toBe(1);
  });
});

describe('images', () => {
  const engine = model();
  const busybox = engine.images.find('busybox:latest');

  test('the seeded busybox has a sha256 id derived from its content, the same on every start', () => {
    expect(busybox.id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(model().images.find('busybox').id).toBe(busybox.id);
    expect(busybox.repoTags).toEqual(['busybox:latest']);
    expect(busybox.config.Cmd).toEqual(['sh']);
  });

  test.each([
    'busybox', 'busybox:latest', 'library/busybox', 'docker.io/library/busybox:latest',
  ])('finds busybox by the name %j', (reference) => {
    expect(engine.images.find(reference)).toBe(busybox);
  });

  test('finds it by full id, bare hex id and short id prefix', () => {
    const hex = busybox.id.slice('sha256:'.length);
    for (const reference of [busybox.id, hex, hex.slice(0, 12), `sha256:${hex.slice(0, 12)}`]) {
      expect(engine.images.find(reference)).toBe(busybox);
    }
  });

  test('another tag of the same repository is not found', () => {
    expect(() => engine.images.find('busybox:1.0')).toThrow(new NotFoundError('No such image: busybox:1.0'));
  });

  test('list filters: dangling, label, reference globs', () => {
    expect(engine.images.list()).toEqual([busybox]);
    expect(engine.images.list({ dangling: true })).toEqual([]);
    expect(engine.images.list({ dangling: false })).toEqual([busybox]);
    expect(engine.images.list({ label: ['maintainer'] })).toEqual([]);
    expect(engine.images.list({ reference: ['busy*'] })).toEqual([busybox]);
    expect(engine.images.list({ reference: ['busybox:l?test'] })).toEqual([busybox]);
    expect(engine.images.list({ reference: ['alpine'] })).toEqual([]);
  });
});

describe('system info', () => {
  test('counts containers by state and images, with the time from the clock', async () => {
    const engine = new EngineModel({ clock: () => START });
    const [first] = [engine.containers.create({ config: { Image: 'busybox' } }), engine.containers.create({ config: { Image: 'busybox' } })];
    if (!first) throw new Error('setup');
    first.state = { ...first.state, Status: 'paused', Running: true, Paused: true };
    const info = await engine.system.info();
    expect(info).toMatchObject({ Containers: 2, ContainersRunning: 0, ContainersPaused: 1, ContainersStopped: 1, Images: 1 });
    expect(info.SystemTime).toBe(START);
  });

  test('reports the host as Node sees it, with a stable daemon id in the engine format', async () => {
    const os = await import('node:os');
    const info = await model().system.info();
    expect(info.NCPU).toBe(os.cpus().length);
    expect(info.MemTotal).toBe(os.totalmem());
    expect(info.KernelVersion).toBe(os.release());
    expect(info.Name).toBe(os.hostname());
    expect(info.ID).toMatch(/^[A-Z2-7]{4}(:[A-Z2-7]{4}){11}$/);
    expect((await model().system.info()).ID).toBe(info.ID);
  });

  test('version names the engine and the Go-style architecture', () => {
    const version = model().system.version();
    expect(version.Version).toBe('1.13.0-shipshape');
    expect(version.Arch).toBe({ x64: 'amd64', arm64: 'arm64' }[process.arch as string] ?? version.Arch);
    expect(version.Os).toBe('linux');
  });
});
