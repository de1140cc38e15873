/**
 * The plugin store on its own: a pull installs the catalogue's plugin disabled (under its own name or
 * a local one, `latest` implied), the privileges vieux/sshfs asks for, names and id prefixes, the
 * conflicts of enable, disable and remove, and the events of each step.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { AmbiguousReferenceError, ConflictError, InvalidParameterError, NotFoundError } from '../../../reference/engine/model/common/errors.ts';
import { EventBus, type EngineEvent } from '../../../reference/engine/model/events/event-bus.ts';
import { PluginEvents } from '../../../reference/engine/model/plugins/plugin-events.ts';
import { PluginStore } from '../../../reference/engine/model/plugins/plugin-store.ts';

const SSHFS_PRIVILEGES = [
  { name: 'network', description: 'permissions to access a network', value: ['host'] },
  { name: 'mount', description: 'host path to mount', value: ['/var/lib/docker/plugins/'] },
  { name: 'mount', description: 'host path to mount', value: [''] },
  { name: 'device', description: 'host device to access', value: ['/dev/fuse'] },
  { name: 'capabilities', description: 'list of additional capabilities required', value: ['CAP_SYS_ADMIN'] },
];

let store: PluginStore;
let events: EngineEvent[];

beforeEach(() => {
  const bus = new EventBus();
  events = [];
  bus.subscribe((event) => events.push(event));
  // ids a1…, a2…: two ids that share the prefix `a`
  let next = 0;
  const ids = () => `a${++next}`.padEnd(64, '0');
  store = new PluginStore({ ids, events: new PluginEvents(bus, () => new Date(0)) });
});

describe('pull', () => {
  test('installs the catalogue plugin disabled under the name pulled, tagged latest, granting what it asks for', () => {
    const { plugin, privileges } = store.pull('vieux/sshfs');
    expect([plugin.name, plugin.repository, plugin.tag, plugin.enabled, plugin.remote]).toEqual(['vieux/sshfs:latest', 'vieux/sshfs', 'latest', false, 'vieux/sshfs:latest']);
    expect(privileges).toEqual(SSHFS_PRIVILEGES);
    expect(store.privileges('docker.io/vieux/sshfs:latest')).toEqual(SSHFS_PRIVILEGES);
    expect(plugin.settings.env).toEqual(['DEBUG=0']);
    expect(events.map(({ type, action, actorId, attributes }) => ({ type, action, actorId, attributes }))).toEqual([
      { type: 'plugin', action: 'pull', actorId: plugin.id, attributes: { name: 'vieux/sshfs:latest' } },
    ]);
  });

  test('a local name takes latest when it has no tag, keeps its own tag, and is refused when taken or with a digest', () => {
    expect(store.pull('vieux/sshfs', 'mine').plugin.name).toBe('mine:latest');
    expect(store.pull('vieux/sshfs:latest', 'mine:v2').plugin.name).toBe('mine:v2');
    expect(() => store.pull('vieux/sshfs', 'mine:latest')).toThrow(new ConflictError('plugin "mine:latest" already exists'));
    expect(() => store.pull('vieux/sshfs', `mine@sha256:${'0'.repeat(64)}`)).toThrow(InvalidParameterError);
    expect(store.list().map((plugin) => plugin.name)).toEqual(['mine:latest', 'mine:v2']);
  });

  test('a name the catalogue does not have is not found, a malformed one refused, and neither installs anything', () => {
    expect(() => store.pull('vieux/sshfs:v9')).toThrow(NotFoundError);
    expect(() => store.privileges('nobody/nothing')).toThrow(NotFoundError);
    expect(() => store.pull('Vieux/SSHFS')).toThrow(new InvalidParameterError('invalid reference format: repository name must be lowercase'));
    expect(store.list()).toEqual([]);
    expect(events).toEqual([]);
  });
});

describe('find', () => {
  test('by name with or without latest, by id and by an unambiguous id prefix', () => {
    const { plugin } = store.pull('vieux/sshfs');
    store.pull('vieux/sshfs', 'other');
    for (const reference of ['vieux/sshfs', 'vieux/sshfs:latest', 'docker.io/vieux/sshfs', plugin.id, 'a1']) expect(store.find(reference)).toBe(plugin);
    expect(() => store.find('a')).toThrow(AmbiguousReferenceError);
    expect(() => store.find('vieux/sshfs:v2')).toThrow(new NotFoundError('plugin "vieux/sshfs:v2" not found'));
  });
});

describe('enable, disable, remove', () => {
  test('enable and disable switch the plugin, each once; doing either twice is a conflict', () => {
    store.pull('vieux/sshfs');
    expect(store.enable('vieux/sshfs').enabled).toBe(true);
    expect(() => store.enable('vieux/sshfs')).toThrow(new ConflictError('plugin already enabled: plugin vieux/sshfs:latest is enabled'));
    expect(store.disable('vieux/sshfs').enabled).toBe(false);
    expect(() => store.disable('vieux/sshfs')).toThrow(new ConflictError('plugin is already disabled: plugin vieux/sshfs:latest is disabled'));
    expect(events.map((event) => event.action)).toEqual(['pull', 'enable', 'disable']);
  });

  test('an enabled plugin is removed only with force; a disabled one without', () => {
    store.pull('vieux/sshfs');
    store.pull('vieux/sshfs', 'idle');
    store.enable('vieux/sshfs');
    expect(() => store.remove('vieux/sshfs')).toThrow(new ConflictError('plugin vieux/sshfs:latest is enabled'));
    expect(store.find('vieux/sshfs').enabled).toBe(true);
    store.remove('vieux/sshfs', true);
    store.remove('idle');
    expect(store.list()).toEqual([]);
    expect(() => store.remove('idle')).toThrow(NotFoundError);
    expect(events.map((event) => `${event.action} ${event.attributes.name}`)).toEqual([
      'pull vieux/sshfs:latest',
      'pull idle:latest',
      'enable vieux/sshfs:latest',
      'remove vieux/sshfs:latest',
      'remove idle:latest',
    ]);
  });
});
