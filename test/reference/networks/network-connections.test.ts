/**
 * Containers on networks in the model, kept in step from both sides (the network's endpoints and the
 * container's settings), with dockerd's rules for starts, stops, connects and disconnects.
 */
import { describe, expect, test } from 'vitest';
import type { Container } from '../../../reference/engine/model/containers/container.ts';
import { EngineModel } from '../../../reference/engine/model/engine-model.ts';
import { ConflictError, EngineError, ForbiddenError, InvalidParameterError, NotFoundError } from '../../../reference/engine/model/common/errors.ts';
import type { Network } from '../../../reference/engine/model/networks/network.ts';
import { ManualScheduler } from '../../../reference/engine/process/index.ts';
import { manualEngine, type ManualEngine } from '../manual-engine.ts';

/** The network events so far, as `action network container-name`. */
function networkEvents(model: EngineModel): () => string[] {
  const seen: string[] = [];
  model.events.subscribe((event) => {
    if (event.type !== 'network') return;
    const container = event.attributes.container ? [...model.containers].find((candidate) => candidate.id === event.attributes.container) : undefined;
    seen.push([event.action, event.attributes.name, container?.name.slice(1)].filter(Boolean).join(' '));
  });
  return () => seen;
}

function userNetwork({ model }: ManualEngine, name: string, subnet = '10.213.41.0/24', extra: Record<string, unknown> = {}): Network {
  return model.networks.create({ name, ipam: { config: [{ Subnet: subnet }] }, ...extra }).network;
}

/** What the network shows of the container, and what the container shows of the network, side by side. */
function bothSides(network: Network, container: Container) {
  const endpoint = network.endpoints.get(container.id);
  const settings = container.networks[network.name];
  return {
    endpoint: endpoint && { id: endpoint.id, mac: endpoint.macAddress },
    settings: settings && { id: settings.EndpointID, mac: settings.MacAddress, address: settings.IPAddress, network: settings.NetworkID },
  };
}

describe('start and stop', () => {
  test('a started container joins the bridge before its start event and leaves it before its die event', async () => {
    const engine = manualEngine();
    const events = networkEvents(engine.model);
    const container = engine.run(['sleep', '300'], { name: 'web' });
    const bridge = engine.model.networks.find('bridge');
    expect(bothSides(bridge, container)).toEqual({
      endpoint: { id: expect.stringMatching(/^[0-9a-f]{64}$/), mac: '02:42:ac:11:00:02' },
      settings: { id: bridge.endpoints.get(container.id)?.id, mac: '02:42:ac:11:00:02', address: '172.17.0.2', network: bridge.id },
    });
    expect(container.networks.bridge).toMatchObject({ Gateway: '172.17.0.1', IPPrefixLen: 16, Aliases: null });
    const stopping = engine.model.lifecycle.stop(container, 0);
    await engine.advance();
    await stopping;
    expect(bothSides(bridge, container)).toEqual({ endpoint: undefined, settings: { id: '', mac: '', address: '', network: bridge.id } });
    expect(events()).toEqual(['connect bridge web', 'disconnect bridge web']);
    expect(engine.events.slice(1)).toEqual(['start', 'kill:15', 'kill:9', 'die:137', 'stop']);
  });

  test('a stopped container gets the lowest free address again when it starts', async () => {
    const engine = manualEngine();
    const first = engine.run(['sleep', '300']);
    const second = engine.run(['sleep', '300']);
    expect([first.networks.bridge?.IPAddress, second.networks.bridge?.IPAddress]).toEqual(['172.17.0.2', '172.17.0.3']);
    await engine.model.lifecycle.kill(first);
    engine.model.lifecycle.start(first);
    expect(first.networks.bridge?.IPAddress).toBe('172.17.0.2');
  });

  test('a user network as network mode: joined at start with the short id as alias, the flat bridge fields empty', () => {
    const engine = manualEngine();
    const network = userNetwork(engine, 'appnet', '10.213.40.0/24', {});
    const container = engine.create(['sleep', '300'], { hostConfig: { NetworkMode: 'appnet' } });
    expect(container.networks.appnet).toMatchObject({ NetworkID: '', Aliases: null });
    engine.model.lifecycle.start(container);
    expect(Object.keys(container.networks)).toEqual(['appnet']);
    expect(container.networks.appnet).toMatchObject({ NetworkID: network.id, IPAddress: '10.213.40.2', Gateway: '10.213.40.1', Aliases: [container.id.slice(0, 12)] });
  });

  test('host and none: an endpoint without addresses; container:<id>: none at all', () => {
    const engine = manualEngine();
    const onHost = engine.run(['sleep', '300'], { hostConfig: { NetworkMode: 'host' } });
    const onNone = engine.run(['sleep', '300'], { hostConfig: { NetworkMode: 'none' } });
    const sharing = engine.run(['sleep', '300'], { hostConfig: { NetworkMode: `container:${onHost.id}` } });
    expect(engine.model.networks.find('host').endpoints.get(onHost.id)).toMatchObject({ macAddress: '', ipv4: undefined });
    expect(engine.model.networks.find('none').endpoints.get(onNone.id)).toMatchObject({ macAddress: '', ipv4: undefined });
    expect(sharing.networks).toEqual({});
    expect([...engine.model.networks].some((network) => network.endpoints.has(sharing.id))).toBe(false);
  });

  test('a network that is gone fails the start with 404 wording, joining nothing', () => {
    const engine = manualEngine();
    const network = userNetwork(engine, 'brief');
    const container = engine.create(['sleep', '300']);
    engine.model.networkConnections.connect('brief', container.id);
    engine.model.networks.remove(network);
    expect(() => engine.model.lifecycle.start(container)).toThrow(new NotFoundError('network brief not found'));
    expect(container.state).toMatchObject({ Running: false, ExitCode: 128, Error: 'network brief not found' });
    expect(engine.model.networks.find('bridge').endpoints.size).toBe(0);
  });

  test('a restart by the policy leaves and joins again', async () => {
    const engine = manualEngine();
    const events = networkEvents(engine.model);
    engine.run(['false'], { name: 'flaky', hostConfig: { RestartPolicy: { Name: 'on-failure', MaximumRetryCount: 1 } } });
    await engine.advance(1000);
    expect(events()).toEqual(['connect bridge flaky', 'disconnect bridge flaky', 'connect bridge flaky', 'disconnect bridge flaky']);
  });

  test('a forced removal of a running container takes its endpoints with it', async () => {
    const engine = manualEngine();
    const container = engine.run(['sleep', '300']);
    await engine.model.lifecycle.remove(container, { force: true });
    expect(engine.model.networks.find('bridge').endpoints.size).toBe(0);
  });
});

describe('connect', () => {
  test('a running container joins at once, both sides agree, with a connect event', () => {
    const engine = manualEngine();
    const events = networkEvents(engine.model);
    const network = userNetwork(engine, 'late');
    const container = engine.run(['sleep', '300'], { name: 'app' });
    engine.model.networkConnections.connect('late', 'app');
    const endpoint = network.endpoints.get(container.id);
    expect(container.networks.late).toMatchObject({ EndpointID: endpoint?.id, IPAddress: '10.213.41.2', MacAddress: '02:42:0a:d5:29:02', NetworkID: network.id });
    expect(events()).toEqual(['create late', 'connect bridge app', 'connect late app']);
    expect(() => engine.model.networkConnections.connect('late', 'app')).toThrow(new ForbiddenError('endpoint with name app already exists in network late'));
  });

  test('a container that is not running only records the settings; again is no change', () => {
    const engine = manualEngine();
    const events = networkEvents(engine.model);
    userNetwork(engine, 'later');
    const container = engine.create(['sleep', '300']);
    engine.model.networkConnections.connect('later', container.id, { IPAMConfig: { IPv4Address: '10.213.41.9' } });
    engine.model.networkConnections.connect('later', container.id, { IPAMConfig: { IPv4Address: '10.213.41.10' } });
    expect(container.networks.later).toMatchObject({ IPAMConfig: { IPv4Address: '10.213.41.9' }, NetworkID: '', Aliases: [container.id.slice(0, 12)] });
    expect(events()).toEqual(['create later']);
    engine.model.lifecycle.start(container);
    expect(container.networks.later?.IPAddress).toBe('10.213.41.9');
  });

  test('a network that does not exist is recorded for a container that is not running, 404 for a running one', () => {
    const engine = manualEngine();
    const created = engine.create(['sleep', '300']);
    engine.model.networkConnections.connect('nosuch', created.id);
    expect(Object.keys(created.networks)).toEqual(['bridge', 'nosuch']);
    const running = engine.run(['sleep', '300']);
    expect(() => engine.model.networkConnections.connect('nosuch', running.id)).toThrow(new NotFoundError('network nosuch not found'));
  });

  test('static addresses: honoured, IPv6 too, and never one held twice', () => {
    const engine = manualEngine();
    const network = userNetwork(engine, 'static', '10.213.42.0/24', { enableIPv6: true, ipam: { config: [{ Subnet: '10.213.42.0/24' }, { Subnet: 'fd00:213:42::/64' }] } });
    const one = engine.run(['sleep', '300']);
    const two = engine.run(['sleep', '300']);
    engine.model.networkConnections.connect('static', one.id, { IPAMConfig: { IPv4Address: '10.213.42.7', IPv6Address: 'fd00:213:42::7' } });
    expect(one.networks.static).toMatchObject({ IPAddress: '10.213.42.7', GlobalIPv6Address: 'fd00:213:42::7', GlobalIPv6PrefixLen: 64, IPv6Gateway: 'fd00:213:42::1' });
    expect(network.endpoints.get(one.id)?.ipv6?.prefixLength).toBe(64);
    expect(() => engine.model.networkConnections.connect('static', two.id, { IPAMConfig: { IPv4Address: '10.213.42.7' } })).toThrow(new ForbiddenError('Address already in use'));
    expect(() => engine.model.networkConnections.connect('static', two.id, { IPAMConfig: { IPv6Address: 'fd00:213:42::7' } })).toThrow(new ForbiddenError('Address already in use'));
    expect(network.endpoints.has(two.id)).toBe(false);
    engine.model.networkConnections.connect('static', two.id);
    expect(two.networks.static).toMatchObject({ IPAddress: '10.213.42.2', GlobalIPv6Address: 'fd00:213:42::2' });
  });

  test.each<[string, Record<string, string>, Error]>([
    ['outside the subnets', { IPv4Address: '10.99.0.5' }, new EngineError("Invalid address 10.99.0.5: It does not belong to any of this network's subnets")],
    ['not an address', { IPv4Address: 'bogus' }, new EngineError('Invalid IPv4 address: bogus')],
    ['of a family without a requested subnet', { IPv6Address: 'fd00::5' }, new InvalidParameterError('user specified IP address is supported only when connecting to networks with user configured subnets')],
  ])('a static address %s is refused', (_, IPAMConfig, error) => {
    const engine = manualEngine();
    userNetwork(engine, 'strict');
    const container = engine.run(['sleep', '300']);
    expect(() => engine.model.networkConnections.connect('strict', container.id, { IPAMConfig })).toThrow(error);
    expect(Object.keys(container.networks)).toEqual(['bridge']);
  });

  test('no static address on a predefined network nor one without a requested subnet', () => {
    const engine = manualEngine();
    engine.model.networks.create({ name: 'pooled' });
    const container = engine.create(['sleep', '300'], { hostConfig: { NetworkMode: 'none' } });
    expect(() => engine.model.networkConnections.connect('bridge', container.id, { IPAMConfig: { IPv4Address: '172.17.5.5' } })).toThrow(
      new InvalidParameterError('user specified IP address is supported on user defined networks only'),
    );
    expect(() => engine.model.networkConnections.connect('pooled', container.id, { IPAMConfig: { IPv4Address: '172.18.0.9' } })).toThrow(
      new InvalidParameterError('user specified IP address is supported only when connecting to networks with user configured subnets'),
    );
  });

  test('host, none and shared namespaces join no other network', () => {
    const engine = manualEngine();
    userNetwork(engine, 'other');
    const plain = engine.run(['sleep', '300']);
    const onHost = engine.run(['sleep', '300'], { hostConfig: { NetworkMode: 'host' } });
    const onNone = engine.run(['sleep', '300'], { hostConfig: { NetworkMode: 'none' } });
    const sharing = engine.run(['sleep', '300'], { hostConfig: { NetworkMode: `container:${plain.id}` } });
    const connections = engine.model.networkConnections;
    expect(() => connections.connect('host', plain.id)).toThrow(new InvalidParameterError('container cannot be disconnected from host network or connected to host network'));
    expect(() => connections.connect('other', onHost.id)).toThrow(
      new InvalidParameterError('container sharing network namespace with another container or host cannot be connected to any other network'),
    );
    expect(() => connections.connect('other', sharing.id)).toThrow(
      new InvalidParameterError('container sharing network namespace with another container or host cannot be connected to any other network'),
    );
    expect(() => connections.connect('other', onNone.id)).toThrow(
      new InvalidParameterError('container cannot be connected to multiple networks with one of the networks in private (none) mode'),
    );
    expect(() => connections.connect('none', plain.id)).toThrow(
      new InvalidParameterError('container cannot be connected to multiple networks with one of the networks in private (none) mode'),
    );
  });

  test('unknown and empty container references', () => {
    const engine = manualEngine();
    userNetwork(engine, 'n');
    expect(() => engine.model.networkConnections.connect('n', 'nosuch')).toThrow(new NotFoundError('No such container: nosuch'));
    expect(() => engine.model.networkConnections.connect('n', '')).toThrow(new InvalidParameterError('invalid name or ID supplied: ""'));
  });

  test('a container being removed is not connected', () => {
    const engine = manualEngine();
    userNetwork(engine, 'n');
    const container = engine.create(['true']);
    container.removing = true;
    expect(() => engine.model.networkConnections.connect('n', container.id)).toThrow(ConflictError);
  });
});

describe('disconnect', () => {
  test('a running container leaves at once: both sides forget it, with a disconnect event; again is refused', () => {
    const engine = manualEngine();
    const events = networkEvents(engine.model);
    const network = userNetwork(engine, 'brief');
    const container = engine.run(['sleep', '300'], { name: 'app' });
    engine.model.networkConnections.connect('brief', 'app');
    engine.model.networkConnections.disconnect('brief', 'app');
    expect([network.endpoints.has(container.id), Object.keys(container.networks)]).toEqual([false, ['bridge']]);
    expect(events().at(-1)).toBe('disconnect brief app');
    expect(() => engine.model.networkConnections.disconnect('brief', 'app')).toThrow(new EngineError(`container ${container.id} is not connected to network brief`));
    expect(() => engine.model.networkConnections.disconnect('brief', 'app', true)).toThrow(EngineError);
  });

  test('a stopped container only forgets the settings; one it does not have is refused', () => {
    const engine = manualEngine();
    const network = userNetwork(engine, 'brief');
    const container = engine.create(['sleep', '300']);
    engine.model.networkConnections.connect(network.id, container.id);
    engine.model.networkConnections.disconnect(network.id, container.id);
    expect(Object.keys(container.networks)).toEqual(['bridge']);
    expect(() => engine.model.networkConnections.disconnect('brief', container.id)).toThrow(new EngineError(`container ${container.id} is not connected to the network brief`));
  });

  test('an unknown container: 404 for it, or with Force for its endpoint', () => {
    const engine = manualEngine();
    userNetwork(engine, 'n');
    expect(() => engine.model.networkConnections.disconnect('n', 'ghost')).toThrow(new NotFoundError('No such container: ghost'));
    expect(() => engine.model.networkConnections.disconnect('n', 'ghost', true)).toThrow(new NotFoundError('endpoint ghost not found'));
    expect(() => engine.model.networkConnections.disconnect('nonet', 'ghost', true)).toThrow(new NotFoundError('network nonet not found'));
  });

  test('a host-mode container stays on host', () => {
    const engine = manualEngine();
    const container = engine.run(['sleep', '300'], { hostConfig: { NetworkMode: 'host' } });
    expect(() => engine.model.networkConnections.disconnect('host', container.id)).toThrow(
      new InvalidParameterError('container cannot be disconnected from host network or connected to host network'),
    );
  });
});

describe('network removal with containers', () => {
  test('refused while a running container is on it; a stopped one keeps the settings of a network that is gone', async () => {
    const engine = manualEngine();
    const network = userNetwork(engine, 'busy');
    const container = engine.run(['sleep', '300'], { hostConfig: { NetworkMode: 'busy' } });
    expect(() => engine.model.networks.remove(network)).toThrow(
      new ForbiddenError(`error while removing network: network busy id ${network.id} has active endpoints`),
    );
    await engine.model.lifecycle.kill(container);
    engine.model.networks.remove(network);
    expect(container.networks.busy?.NetworkID).toBe(network.id);
    expect(() => engine.model.lifecycle.start(container)).toThrow(new NotFoundError(`network ${network.id} not found`));
  });
});

describe('swarm-scoped networks', () => {
  test('connect and disconnect are forbidden, for running and stopped containers alike', () => {
    const model = new EngineModel({ scheduler: new ManualScheduler(), swarm: true });
    model.networks.create({ name: 'mesh', driver: 'overlay' });
    const container = model.containers.create({ config: { Image: 'busybox', Cmd: ['sleep', '300'] } });
    const forbidden = new ForbiddenError('operation not supported for swarm scoped networks');
    expect(() => model.networkConnections.connect('mesh', container.id)).toThrow(forbidden);
    model.lifecycle.start(container);
    expect(() => model.networkConnections.connect('mesh', container.id)).toThrow(forbidden);
    expect(() => model.networkConnections.disconnect('mesh', container.id)).toThrow(forbidden);
    model.lifecycle.shutdown();
  });
});
