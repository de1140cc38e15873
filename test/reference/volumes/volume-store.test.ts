/**
 * The volume store's rules: names as given or generated, dockerd's refusals (names, drivers, local
 * driver options), an existing name answered with its volume, the list filters, removal refused
 * while a container uses the volume, and the create and destroy events.
 */
import { describe, expect, test } from 'vitest';
import { ConflictError, InvalidParameterError, NotFoundError } from '../../../reference/engine/model/common/errors.ts';
import { EventBus, type EngineEvent } from '../../../reference/engine/model/events/event-bus.ts';
import { VolumeEvents } from '../../../reference/engine/model/volumes/volume-events.ts';
import { VolumeStore } from '../../../reference/engine/model/volumes/volume-store.ts';

const NOW = new Date('2024-03-01T12:00:00Z');

function store(): { volumes: VolumeStore; events: EngineEvent[] } {
  const bus = new EventBus();
  const events: EngineEvent[] = [];
  bus.subscribe((event) => events.push(event));
  let next = 0;
  const volumes = new VolumeStore({ clock: () => NOW, ids: () => (++next).toString(16).padStart(64, 'f'), events: new VolumeEvents(bus, () => NOW) });
  return { volumes, events };
}

const names = (volumes: { name: string }[]) => volumes.map((volume) => volume.name);

describe('create', () => {
  test('a name as given, or a generated one; the local driver, the labels and options as given, the creation time', () => {
    const { volumes } = store();
    const named = volumes.create({ name: 'data', labels: { a: 'b' }, driverOpts: { type: 'tmpfs', device: 'tmpfs' } });
    expect(named).toMatchObject({ name: 'data', driver: 'local', labels: { a: 'b' }, options: { type: 'tmpfs', device: 'tmpfs' }, createdAt: NOW });
    expect(volumes.create().name).toBe(`${'f'.repeat(63)}1`);
    expect(volumes.create({ name: '' }).name).toBe(`${'f'.repeat(63)}2`);
    expect(volumes.count).toBe(3);
  });

  test('an existing name answers that volume as it is, and emits create again, as dockerd does', () => {
    const { volumes, events } = store();
    const first = volumes.create({ name: 'data', labels: { colour: 'red' } });
    const again = volumes.create({ name: 'data', labels: { colour: 'blue' } });
    expect(again).toBe(first);
    expect(again.labels).toEqual({ colour: 'red' });
    expect(events.map((event) => [event.type, event.action, event.actorId, event.attributes])).toEqual([
      ['volume', 'create', 'data', { driver: 'local' }],
      ['volume', 'create', 'data', { driver: 'local' }],
    ]);
  });

  test("dockerd's refusals: a driver other than local is not found; bad names and local options are invalid", () => {
    const { volumes } = store();
    const refusal = (options: Parameters<VolumeStore['create']>[0]) => {
      try {
        volumes.create(options);
        return undefined;
      } catch (error) {
        return [(error as Error).constructor.name, (error as Error).message];
      }
    };
    expect(refusal({ name: 'data', driver: 'nosuch' })).toEqual([NotFoundError.name, 'create data: error looking up volume plugin nosuch: plugin "nosuch" not found']);
    expect(refusal({ name: 'a' })).toEqual([InvalidParameterError.name, 'create a: volume name is too short, names should be at least two alphanumeric characters']);
    expect(refusal({ name: '_ab' })?.[1]).toMatch(/^create _ab: "_ab" includes invalid characters for a local volume name, only "\[a-zA-Z0-9\]\[a-zA-Z0-9_.-\]" are allowed/);
    expect(refusal({ name: 'a/b' })?.[0]).toBe(InvalidParameterError.name);
    expect(refusal({ name: 'opts', driverOpts: { foo: 'bar' } })).toEqual([InvalidParameterError.name, 'create opts: invalid option: "foo"']);
    expect(refusal({ name: 'opts', driverOpts: { type: 'tmpfs' } })?.[1]).toBe('create opts: missing required option: "device"');
    expect(refusal({ name: 'opts', driverOpts: { device: 'tmpfs' } })?.[1]).toBe('create opts: missing required option: "type"');
    expect(refusal({ name: 'ab.c-d_e', driver: 'local' })).toBeUndefined();
    expect(volumes.count).toBe(1);
  });
});

describe('list', () => {
  function three() {
    const context = store();
    context.volumes.create({ name: 'web-data', labels: { tier: 'web', keep: '' } });
    context.volumes.create({ name: 'db-data', labels: { tier: 'db' } });
    context.volumes.create({ name: 'cache' });
    return context;
  }

  test('by name, sorted; name and driver take part of the value (a pattern), any of several', () => {
    const { volumes } = three();
    expect(names(volumes.list())).toEqual(['cache', 'db-data', 'web-data']);
    expect(names(volumes.list({ name: ['data'] }))).toEqual(['db-data', 'web-data']);
    expect(names(volumes.list({ name: ['^web', 'cache'] }))).toEqual(['cache', 'web-data']);
    expect(names(volumes.list({ name: ['DATA'] }))).toEqual([]);
    expect(names(volumes.list({ driver: ['loc'] }))).toEqual(['cache', 'db-data', 'web-data']);
    expect(names(volumes.list({ driver: ['nosuch'] }))).toEqual([]);
  });

  test('label: key or key=value, every one given', () => {
    const { volumes } = three();
    expect(names(volumes.list({ label: ['tier'] }))).toEqual(['db-data', 'web-data']);
    expect(names(volumes.list({ label: ['tier=db'] }))).toEqual(['db-data']);
    expect(names(volumes.list({ label: ['tier', 'keep'] }))).toEqual(['web-data']);
    expect(names(volumes.list({ label: ['tier=cache'] }))).toEqual([]);
  });

  test('dangling: true or 1 the volumes no container uses, false or 0 those in use; anything else is invalid', () => {
    const { volumes } = three();
    volumes.use(volumes.find('db-data'), 'c1');
    expect(names(volumes.list({ dangling: ['true'] }))).toEqual(['cache', 'web-data']);
    expect(names(volumes.list({ dangling: ['1'] }))).toEqual(['cache', 'web-data']);
    expect(names(volumes.list({ dangling: ['false'] }))).toEqual(['db-data']);
    expect(names(volumes.list({ dangling: ['0', 'true'] }))).toEqual(['cache', 'web-data']);
    expect(() => volumes.list({ dangling: ['yes'] })).toThrow(new InvalidParameterError("Invalid filter 'dangling=[yes]'"));
  });
});

describe('remove', () => {
  test('removes the volume with a destroy event; a second removal is not found', () => {
    const { volumes, events } = store();
    volumes.create({ name: 'data' });
    volumes.remove('data');
    expect(() => volumes.find('data')).toThrow(new NotFoundError('get data: no such volume'));
    expect(() => volumes.remove('data')).toThrow(new NotFoundError('get data: no such volume'));
    expect(events.map((event) => event.action)).toEqual(['create', 'destroy']);
  });

  test('refused while a container uses the volume, naming the containers; allowed once the last lets it go', () => {
    const { volumes } = store();
    const volume = volumes.create({ name: 'data' });
    volumes.use(volume, 'c1');
    volumes.use(volume, 'c2');
    expect(() => volumes.remove('data')).toThrow(new ConflictError('remove data: volume is in use - [c1 c2]'));
    volumes.release(volume, 'c1');
    expect(() => volumes.remove('data')).toThrow(ConflictError);
    volumes.release(volume, 'c2');
    volumes.remove('data');
    expect(volumes.count).toBe(0);
  });
});
