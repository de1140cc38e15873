/** The container list filters of the model, on a manual clock: each one lists what it names and nothing else. */
import { describe, expect, test } from 'vitest';
import type { Container } from '../../reference/engine/model/containers/container.ts';
import { InvalidParameterError } from '../../reference/engine/model/common/errors.ts';
import { manualEngine } from './manual-engine.ts';

function names(containers: Container[]): string[] {
  return containers.map((container) => container.name);
}

/** Four containers created in this order: one never started, one running, one exited 3, one exited 0. */
async function cast() {
  const engine = manualEngine();
  engine.create(['true'], { name: 'created', config: { Volumes: { '/data': {} } } });
  engine.run(['sleep', '300'], { name: 'running', hostConfig: { NetworkMode: 'none' } });
  engine.run(['sh', '-c', 'exit 3'], { name: 'three', hostConfig: { Binds: ['named:/named', '/host/path:/bound:ro'] } });
  engine.run(['true'], { name: 'zero' });
  await engine.advance();
  return engine;
}

describe('container list filters', () => {
  test('exited: stopped containers that ended with one of the codes; never a created one (exit code 0 too)', async () => {
    const { model } = await cast();
    expect(names(model.containers.list({ all: true, filters: { exited: ['3'] } }))).toEqual(['/three']);
    expect(names(model.containers.list({ all: true, filters: { exited: ['0', '3'] } }))).toEqual(['/zero', '/three']);
  });

  test('exited: a value that is not an integer is refused', async () => {
    const { model } = await cast();
    expect(() => model.containers.list({ all: true, filters: { exited: ['x'] } })).toThrow(InvalidParameterError);
  });

  test('before and since: the containers created before or after the one named (id or name), not itself', async () => {
    const { model } = await cast();
    expect(names(model.containers.list({ all: true, filters: { before: ['running'] } }))).toEqual(['/created']);
    expect(names(model.containers.list({ all: true, filters: { since: [model.containers.find('running').id] } }))).toEqual(['/zero', '/three']);
    expect(names(model.containers.list({ all: true, filters: { since: ['created'], before: ['zero'] } }))).toEqual(['/three', '/running']);
  });

  test('before and since: the last value counts; one naming no container is a bad parameter (400) in dockerd\'s words', async () => {
    const { model } = await cast();
    expect(names(model.containers.list({ all: true, filters: { since: ['zero', 'three'] } }))).toEqual(['/zero']);
    expect(() => model.containers.list({ all: true, filters: { since: ['ghost'] } })).toThrow(new InvalidParameterError('no such container ghost'));
    expect(() => model.containers.list({ all: true, filters: { before: ['ghost'] } })).toThrow(InvalidParameterError);
  });

  test('publish and expose: the public and the private ports of a running container, a range, tcp unless a protocol is given; a bad value is 400', async () => {
    const engine = manualEngine();
    engine.run(['sleep', '300'], { name: 'web', config: { ExposedPorts: { '80/tcp': {}, '53/udp': {} } }, hostConfig: { PortBindings: { '80/tcp': [{ HostPort: '8080' }] } } });
    engine.create(['true'], { name: 'created', config: { ExposedPorts: { '80/tcp': {} } }, hostConfig: { PortBindings: { '80/tcp': [{ HostPort: '8081' }] } } });
    await engine.advance();
    const listed = (filters: Record<string, string[]>) => names(engine.model.containers.list({ all: true, filters }));
    expect(listed({ publish: ['8080'] })).toEqual(['/web']);
    expect(listed({ publish: ['80'] })).toEqual([]);
    expect(listed({ publish: ['8080/udp'] })).toEqual([]);
    expect(listed({ expose: ['53/udp'] })).toEqual(['/web']);
    expect(listed({ expose: ['50-90'] })).toEqual(['/web']);
    expect(listed({ expose: ['81-90'] })).toEqual([]);
    expect(() => listed({ publish: ['80:80'] })).toThrow(new InvalidParameterError("filter for 'publish' should not contain ':': 80:80"));
    expect(() => listed({ expose: ['70000'] })).toThrow(new InvalidParameterError('error while looking up for expose 70000: strconv.ParseUint: parsing "70000": value out of range'));
    expect(() => listed({ expose: ['bogus/x'] })).toThrow(new InvalidParameterError('error while looking up for expose bogus/x: strconv.ParseUint: parsing "bogus": invalid syntax'));
  });

  test('is-task: true lists the containers of swarm tasks, false the others; another value is 400', () => {
    const engine = manualEngine();
    engine.create(['true'], { name: 'task', config: { Labels: { 'com.docker.swarm.task.id': 'abc' } } });
    engine.create(['true'], { name: 'own' });
    const listed = (filters: Record<string, string[]>) => names(engine.model.containers.list({ all: true, filters }));
    expect(listed({ 'is-task': ['true'] })).toEqual(['/task']);
    expect(listed({ 'is-task': ['false'] })).toEqual(['/own']);
    expect(() => listed({ 'is-task': ['x'] })).toThrow(new InvalidParameterError("Invalid filter 'is-task=[x]'"));
  });

  test('ancestor: by image name or id; an image that does not exist matches nothing and is no error', async () => {
    const { model } = await cast();
    const image = model.images.find('busybox');
    expect(model.containers.list({ all: true, filters: { ancestor: ['busybox'] } })).toHaveLength(4);
    expect(model.containers.list({ all: true, filters: { ancestor: [image.id] } })).toHaveLength(4);
    expect(model.containers.list({ all: true, filters: { ancestor: ['nosuch:latest'] } })).toEqual([]);
  });

  test('volume: by mount destination, named volume or bind source', async () => {
    const { model } = await cast();
    expect(names(model.containers.list({ all: true, filters: { volume: ['/data'] } }))).toEqual(['/created']);
    expect(names(model.containers.list({ all: true, filters: { volume: ['named'] } }))).toEqual(['/three']);
    expect(names(model.containers.list({ all: true, filters: { volume: ['/host/path'] } }))).toEqual(['/three']);
    expect(model.containers.list({ all: true, filters: { volume: ['/elsewhere'] } })).toEqual([]);
  });

  test('network: by the name of a network the container is on', async () => {
    const { model } = await cast();
    expect(names(model.containers.list({ all: true, filters: { network: ['none'] } }))).toEqual(['/running']);
    expect(names(model.containers.list({ all: true, filters: { network: ['bridge'] } }))).toEqual(['/zero', '/three', '/created']);
  });

  test('status: each state lists its containers; removing is a known value that lists none here', async () => {
    const { model } = await cast();
    expect(names(model.containers.list({ filters: { status: ['exited'] } }))).toEqual(['/zero', '/three']);
    expect(names(model.containers.list({ filters: { status: ['created', 'running'] } }))).toEqual(['/running', '/created']);
    expect(model.containers.list({ filters: { status: ['removing'] } })).toEqual([]);
  });

  test('filters of different names must all hold', async () => {
    const { model } = await cast();
    expect(names(model.containers.list({ all: true, filters: { network: ['bridge'], exited: ['0'] } }))).toEqual(['/zero']);
  });
});
