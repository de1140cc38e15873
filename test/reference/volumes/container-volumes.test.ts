/**
 * Containers and their volumes through a container's life, on a manual clock: binds and
 * Config.Volumes make volumes at create, containers share a volume's files, mount and unmount events
 * at start and at the end of the process, removal with and without `v`, AutoRemove, and a create
 * that fails half-way.
 */
import { describe, expect, test } from 'vitest';
import type { Container } from '../../../reference/engine/model/containers/container.ts';
import { InvalidParameterError } from '../../../reference/engine/model/common/errors.ts';
import type { EngineEvent } from '../../../reference/engine/model/events/event-bus.ts';
import { manualEngine } from '../manual-engine.ts';

async function output(container: Container): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const entry of container.log.read({ stdout: true, stderr: true })) chunks.push(entry.bytes);
  return Buffer.concat(chunks).toString();
}

function volumeEvents(engine: ReturnType<typeof manualEngine>): EngineEvent[] {
  const seen: EngineEvent[] = [];
  engine.model.events.subscribe((event) => {
    if (event.type === 'volume') seen.push(event);
  });
  return seen;
}

describe('create', () => {
  test('a bind naming a missing volume creates it; Config.Volumes (the image\'s too) make anonymous ones; binds come first', () => {
    const engine = manualEngine();
    const container = engine.create(['true'], { config: { Volumes: { '/cache': {} } }, hostConfig: { Binds: ['data:/data', '/host:/host:ro'] } });
    expect(container.mounts.map(({ type, destination, mode, volume }) => [type, destination, mode, volume?.name.length])).toEqual([
      ['volume', '/data', 'z', 4],
      ['bind', '/host', 'ro', undefined],
      ['volume', '/cache', '', 64],
    ]);
    expect(engine.model.volumes.list().map((volume) => volume.name)).toContain('data');
    expect(engine.model.volumes.list({ dangling: ['true'] })).toEqual([]);
  });

  test('an empty volume takes what the image holds at its destination; nocopy leaves it empty', () => {
    const engine = manualEngine();
    engine.create(['true'], { hostConfig: { Binds: ['copied:/etc', 'empty:/root:nocopy'] } });
    expect(engine.model.volumes.find('copied').files.get('/passwd')?.kind).toBe('file');
    engine.create(['true'], { hostConfig: { Binds: ['uncopied:/etc:nocopy'] } });
    expect(engine.model.volumes.find('uncopied').files.hasChildren('/')).toBe(false);
  });

  test('a create that fails on a later bind lets the volumes made before it go: the anonymous ones are removed, the named stay', () => {
    const engine = manualEngine();
    expect(() => engine.create(['true'], { config: { Volumes: {} }, hostConfig: { Binds: ['/bare', 'kept:/kept', 'x:/bad'] } })).toThrow(InvalidParameterError);
    expect(engine.model.volumes.list().map((volume) => volume.name)).toEqual(['kept']);
    expect(engine.model.volumes.list({ dangling: ['true'] }).map((volume) => volume.name)).toEqual(['kept']);
  });
});

describe('running', () => {
  test('what one container writes into a named volume, another reads where it mounts it', async () => {
    const engine = manualEngine();
    engine.run(['sh', '-c', 'echo shared > /data/note'], { hostConfig: { Binds: ['data:/data'] } });
    await engine.advance();
    const reader = engine.run(['cat', '/elsewhere/note'], { hostConfig: { Binds: ['data:/elsewhere'] } });
    await engine.advance();
    expect(await output(reader)).toBe('shared\n');
  });

  test('a read-only bind refuses writes', async () => {
    const engine = manualEngine();
    const container = engine.run(['touch', '/data/file'], { hostConfig: { Binds: ['data:/data:ro'] } });
    await engine.advance();
    expect(container.state.ExitCode).toBe(1);
    expect(await output(container)).toMatch(/Read-only file system/);
  });

  test('mount at each start with container, destination, propagation and read/write; unmount at each end of the process', async () => {
    const engine = manualEngine();
    const events = volumeEvents(engine);
    const container = engine.run(['true'], { hostConfig: { Binds: ['data:/data:ro'] } });
    await engine.advance();
    engine.model.lifecycle.start(container);
    await engine.advance();
    expect(events.map((event) => [event.action, event.actorId, event.attributes])).toEqual([
      ['create', 'data', { driver: 'local' }],
      ...[1, 2].flatMap(() => [
        ['mount', 'data', { container: container.id, destination: '/data', driver: 'local', propagation: '', 'read/write': 'false' }],
        ['unmount', 'data', { container: container.id, driver: 'local' }],
      ]),
    ]);
  });
});

describe('removal', () => {
  test('without v the container lets its volumes go and they stay; with v its anonymous ones are removed, named ones stay', async () => {
    const engine = manualEngine();
    const plain = engine.create(['true'], { config: { Volumes: { '/anon': {} } }, hostConfig: { Binds: ['named:/named'] } });
    const anonymousOfPlain = plain.mounts[1]?.volume?.name ?? '';
    await engine.model.lifecycle.remove(plain);
    expect(engine.model.volumes.list({ dangling: ['true'] }).map((volume) => volume.name).sort()).toEqual([anonymousOfPlain, 'named'].sort());
    const withV = engine.create(['true'], { config: { Volumes: { '/anon': {} } }, hostConfig: { Binds: ['named:/named'] } });
    const anonymous = withV.mounts[1]?.volume?.name ?? '';
    await engine.model.lifecycle.remove(withV, { volumes: true });
    const left = engine.model.volumes.list().map((volume) => volume.name);
    expect({ anonymous: left.includes(anonymous), named: left.includes('named') }).toEqual({ anonymous: false, named: true });
  });

  test('an anonymous volume another container still uses is not removed', async () => {
    const engine = manualEngine();
    const first = engine.create(['true'], { config: { Volumes: { '/anon': {} } } });
    const anonymous = first.mounts[0]?.volume?.name ?? '';
    engine.create(['true'], { hostConfig: { Binds: [`${anonymous}:/shared`] } });
    await engine.model.lifecycle.remove(first, { volumes: true });
    expect(engine.model.volumes.find(anonymous).name).toBe(anonymous);
  });

  test('AutoRemove takes the anonymous volumes with the container', async () => {
    const engine = manualEngine();
    const container = engine.run(['true'], { config: { Volumes: { '/anon': {} } }, hostConfig: { AutoRemove: true } });
    const anonymous = container.mounts[0]?.volume?.name ?? '';
    await engine.advance();
    expect(engine.model.volumes.list().map((volume) => volume.name)).not.toContain(anonymous);
  });
});
