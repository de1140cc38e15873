/** The network store: predefined networks, dockerd's create rules and errors, find, list filters, removal. */
import { beforeEach, describe, expect, test } from 'vitest';
import { AmbiguousReferenceError, ConflictError, EngineError, ForbiddenError, InvalidParameterError, NotFoundError } from '../../../reference/engine/model/common/errors.ts';
import { EventBus, type EngineEvent } from '../../../reference/engine/model/events/event-bus.ts';
import { NetworkEvents } from '../../../reference/engine/model/networks/network-events.ts';
import { NetworkStore, type NetworkCreateOptions } from '../../../reference/engine/model/networks/network-store.ts';

let store: NetworkStore;
let events: EngineEvent[];
let inSwarm: boolean;

beforeEach(() => {
  const bus = new EventBus();
  events = [];
  bus.subscribe((event) => events.push(event));
  let next = 0;
  inSwarm = false;
  store = new NetworkStore({
    clock: () => new Date(Date.UTC(2024, 0, 1)),
    // eight digits of a counter, repeated: ids that differ from their first digits on
    ids: () => (++next).toString(16).padStart(8, '0').repeat(8),
    events: new NetworkEvents(bus, () => new Date(Date.UTC(2024, 0, 1))),
    inSwarm: () => inSwarm,
  });
});

const create = (options: Partial<NetworkCreateOptions> & { name: string }) => store.create(options).network;
const names = (filters = {}) => store.list(filters).map((network) => network.name);

describe('predefined networks', () => {
  test('none, host and bridge, with the default bridge on 172.17.0.0/16 and gateway .1', () => {
    expect(store.list().map((network) => [network.name, network.driver, network.scope])).toEqual([
      ['none', 'null', 'local'],
      ['host', 'host', 'local'],
      ['bridge', 'bridge', 'local'],
    ]);
    expect(store.find('bridge').settings.ipam.Config).toEqual([{ Subnet: '172.17.0.0/16', Gateway: '172.17.0.1' }]);
  });

  test('cannot be created again nor removed; their ids outlive a reset', () => {
    const bridge = store.find('bridge');
    for (const name of ['bridge', 'host', 'none', 'default']) {
      expect(() => create({ name })).toThrow(new ForbiddenError(`operation is not permitted on predefined ${name} network `));
    }
    expect(() => store.remove(bridge)).toThrow(new ForbiddenError('bridge is a pre-defined network and cannot be removed'));
    create({ name: 'mine' });
    store.reset();
    expect([names(), store.find('bridge').id]).toEqual([['none', 'host', 'bridge'], bridge.id]);
  });
});

describe('create', () => {
  test('a bridge network by default, with the next free default pool and a create event', () => {
    const network = create({ name: 'n1', labels: { a: 'b' }, options: { o: 'p' } });
    expect([network.driver, network.scope, network.settings.labels, network.settings.options]).toEqual(['bridge', 'local', { a: 'b' }, { o: 'p' }]);
    expect(network.settings.ipam).toEqual({ Driver: 'default', Options: null, Config: [{ Subnet: '172.18.0.0/16', Gateway: '172.18.0.1' }] });
    expect(create({ name: 'n2' }).settings.ipam.Config).toEqual([{ Subnet: '172.19.0.0/16', Gateway: '172.19.0.1' }]);
    expect(events.map((event) => [event.type, event.action, event.actorId, event.attributes])).toContainEqual(['network', 'create', network.id, { name: 'n1', type: 'bridge' }]);
  });

  test('a requested subnet is shown as given; a default pool skips the subnets in use', () => {
    create({ name: 'taken', ipam: { config: [{ Subnet: '172.18.5.0/24' }] } });
    expect(store.find('taken').settings.ipam.Config).toEqual([{ Subnet: '172.18.5.0/24' }]);
    expect(create({ name: 'next' }).settings.ipam.Config[0]?.Subnet).toBe('172.19.0.0/16');
  });

  test('a duplicate name is a warning, or with CheckDuplicate a conflict', () => {
    const first = create({ name: 'twin' });
    expect(() => store.create({ name: 'twin', checkDuplicate: true })).toThrow(new ConflictError('network with name twin already exists'));
    expect(store.create({ name: 'twin' }).warning).toBe(`Network with name twin (id : ${first.id}) already exists`);
    expect(() => store.find('twin')).toThrow(new AmbiguousReferenceError('network twin is ambiguous (2 matches found based on name)'));
  });

  test.each<[string, Partial<NetworkCreateOptions>, Error]>([
    ['no name', { name: '' }, new InvalidParameterError('invalid name: ')],
    ['an unknown driver', { driver: 'nosuchdriver' }, new NotFoundError('plugin "nosuchdriver" not found')],
    ['an unknown IPAM driver', { ipam: { driver: 'nosuchipam' } }, new NotFoundError('plugin "nosuchipam" not found')],
    ['a second host network', { driver: 'host' }, new ForbiddenError('only one instance of "host" network is allowed')],
    ['a second null network', { driver: 'null' }, new ForbiddenError('only one instance of "null" network is allowed')],
    ['overlay outside a swarm', { driver: 'overlay' }, new EngineError('This node is not a swarm manager. Use "docker swarm init" or "docker swarm join" to connect this node to swarm and try again.')],
    ['a subnet that is none', { ipam: { config: [{ Subnet: 'bogus' }] } }, new InvalidParameterError('Invalid subnet bogus : invalid CIDR address: bogus')],
    ['a pool without subnet', { ipam: { config: [{ Gateway: '10.0.0.1' }] } }, new InvalidParameterError('Invalid subnet  : invalid CIDR address: ')],
    ['a subnet overlapping the bridge', { ipam: { config: [{ Subnet: '172.17.3.0/24' }] } }, new ForbiddenError('Pool overlaps with other one on this address space')],
    ['two IPv4 subnets on a bridge', { ipam: { config: [{ Subnet: '10.1.0.0/24' }, { Subnet: '10.2.0.0/24' }] } }, new ForbiddenError("bridge driver doesn't support multiple subnets")],
    ['a gateway outside the subnet', { ipam: { config: [{ Subnet: '10.1.0.0/24', Gateway: '10.2.0.1' }] } }, new EngineError('failed to allocate gateway (10.2.0.1): Requested address is out of range')],
    ['the network address as gateway', { ipam: { config: [{ Subnet: '10.1.0.0/24', Gateway: '10.1.0.0' }] } }, new EngineError('failed to allocate gateway (10.1.0.0): Address already in use')],
    ['IPv6 without an IPv6 subnet', { enableIPv6: true }, new NotFoundError('could not find an available, non-overlapping IPv6 address pool among the defaults to assign to the network')],
  ])('refuses %s with dockerd’s error', (_, options, error) => {
    expect(() => store.create({ name: 'refused', ...options })).toThrow(error);
    expect(names()).not.toContain('refused');
  });

  test('overlay in a swarm makes a swarm-scoped network on the swarm pools', () => {
    inSwarm = true;
    const network = create({ name: 'web', driver: 'overlay' });
    expect([network.scope, network.settings.ipam.Config]).toEqual(['swarm', [{ Subnet: '10.0.0.0/24', Gateway: '10.0.0.1' }]]);
  });

  test('an IPv6 subnet with EnableIPv6 goes beside a default IPv4 pool', () => {
    const network = create({ name: 'six', enableIPv6: true, ipam: { config: [{ Subnet: 'fd00:1::/64' }] } });
    expect(network.settings.ipam.Config).toEqual([{ Subnet: '172.18.0.0/16', Gateway: '172.18.0.1' }, { Subnet: 'fd00:1::/64' }]);
    expect([network.hasRequestedSubnet(4), network.hasRequestedSubnet(6)]).toEqual([false, true]);
  });
});

describe('find', () => {
  test('full id, then exact name, then id prefix; none is not found', () => {
    const network = create({ name: 'findme' });
    expect(store.find(network.id)).toBe(network);
    expect(store.find('findme')).toBe(network);
    expect(store.find(network.id.slice(0, 12))).toBe(network);
    expect(() => store.find('nosuch')).toThrow(new NotFoundError('network nosuch not found'));
  });

  test('a name wins over an id prefix it looks like; a prefix of two ids is ambiguous', () => {
    const network = create({ name: 'one' });
    const lookalike = create({ name: network.id.slice(0, 8) });
    expect(store.find(network.id.slice(0, 8))).toBe(lookalike);
    expect(() => store.find('0000000')).toThrow(AmbiguousReferenceError);
  });
});

describe('list filters', () => {
  beforeEach(() => {
    create({ name: 'front-end', labels: { tier: 'web', team: 'a' } });
    create({ name: 'back-end', labels: { tier: 'db' } });
  });

  test('name and id match anywhere, as patterns', () => {
    expect(names({ name: ['end'] })).toEqual(['front-end', 'back-end']);
    expect(names({ name: ['^back'] })).toEqual(['back-end']);
    expect(names({ name: ['['] })).toEqual([]);
    const { id } = store.find('back-end');
    expect(names({ id: [id.slice(3, 20)] })).toEqual(['back-end']);
  });

  test('driver and scope exactly, label by key or key=value, type custom or builtin', () => {
    expect(names({ driver: ['null'] })).toEqual(['none']);
    expect(names({ driver: ['bri'] })).toEqual([]);
    expect(names({ scope: ['local'], name: ['end'] })).toEqual(['front-end', 'back-end']);
    expect(names({ label: ['team'] })).toEqual(['front-end']);
    expect(names({ label: ['tier=db'] })).toEqual(['back-end']);
    expect(names({ type: ['custom'] })).toEqual(['front-end', 'back-end']);
    expect(names({ type: ['builtin'] })).toEqual(['none', 'host', 'bridge']);
  });

  test('an unknown type is refused', () => {
    expect(() => store.list({ type: ['bogus'] })).toThrow(new EngineError("invalid filter: 'type'='bogus'"));
  });
});

describe('remove', () => {
  test('takes the network away with a destroy event', () => {
    const network = create({ name: 'gone', driver: 'bridge' });
    store.remove(network);
    expect(names()).not.toContain('gone');
    expect(events.at(-1)).toMatchObject({ type: 'network', action: 'destroy', actorId: network.id, attributes: { name: 'gone', type: 'bridge' } });
  });
});
