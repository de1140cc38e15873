/** Prune and disk usage of the model: what each prune takes and keeps, its answer, its events. */
import { describe, expect, test } from 'vitest';
import { diskUsage } from '../../reference/engine/model/system/disk-usage.ts';
import { selectedBy } from '../../reference/engine/model/system/prune.ts';
import { manualEngine } from './manual-engine.ts';

const MARK = { 'shipshape.prune': 'yes' };

function actionsOf(model: ReturnType<typeof manualEngine>['model'], type: string): string[] {
  return model.events.since(new Date(0)).filter((event) => event.type === type).map((event) => event.action);
}

describe('selectedBy', () => {
  const created = new Date('2026-01-01T00:00:00Z');
  test('label entries must all hold; an object every label! entry holds for is kept', () => {
    expect(selectedBy({ label: ['a=1'] }, { a: '1' }, created)).toBe(true);
    expect(selectedBy({ label: ['a=1', 'b'] }, { a: '1' }, created)).toBe(false);
    expect(selectedBy({ notLabel: ['keep'] }, { keep: 'x' }, created)).toBe(false);
    expect(selectedBy({ notLabel: ['keep', 'other'] }, { keep: 'x' }, created)).toBe(true);
  });

  test('until selects what was created before it', () => {
    expect(selectedBy({ until: new Date('2026-01-02T00:00:00Z') }, {}, created)).toBe(true);
    expect(selectedBy({ until: created }, {}, created)).toBe(false);
  });
});

describe('pruneContainers', () => {
  test('removes created and exited containers the filters select, keeps running ones, then publishes prune with reclaimed', async () => {
    const { model, create, run, advance } = manualEngine();
    const created = create(['true'], { config: { Labels: MARK } });
    const exited = run(['sh', '-c', 'echo x > /f'], { config: { Labels: MARK } });
    const running = run(['sleep', '300'], { config: { Labels: MARK } });
    const other = create(['true']);
    await advance(10);
    const pruned = await model.pruner.pruneContainers({ label: ['shipshape.prune=yes'] });
    expect([...pruned.ContainersDeleted].sort()).toEqual([created.id, exited.id].sort());
    expect(pruned.SpaceReclaimed).toBeGreaterThan(0);
    expect(model.containers.has(running) && model.containers.has(other)).toBe(true);
    const last = model.events.since(new Date(0)).at(-1);
    expect(last).toMatchObject({ type: 'container', action: 'prune', actorId: '', attributes: { reclaimed: String(pruned.SpaceReclaimed) } });
    model.lifecycle.shutdown();
  });
});

describe('pruneVolumes', () => {
  test('removes unused volumes without a destroy event, keeps one a container uses', async () => {
    const { model, create } = manualEngine();
    model.volumes.create({ name: 'unused', labels: MARK });
    model.volumes.create({ name: 'used', labels: MARK });
    create(['true'], { hostConfig: { Binds: ['used:/data'] } });
    const pruned = await model.pruner.pruneVolumes({ label: ['shipshape.prune'] });
    expect(pruned).toEqual({ VolumesDeleted: ['unused'], SpaceReclaimed: 0 });
    expect(actionsOf(model, 'volume')).not.toContain('destroy');
    expect(actionsOf(model, 'volume').at(-1)).toBe('prune');
  });
});

describe('pruneNetworks', () => {
  test('removes user networks nothing is on, never the predefined ones', async () => {
    const { model } = manualEngine();
    model.networks.create({ name: 'spare', labels: MARK });
    const pruned = await model.pruner.pruneNetworks({});
    expect(pruned.NetworksDeleted).toEqual(['spare']);
    expect(model.networks.list().map((network) => network.name)).toContain('bridge');
  });
});

describe('pruneImages', () => {
  test('deletes untagged images, and with dangling false tagged ones too, never one a container uses', async () => {
    const { model } = manualEngine();
    const busybox = model.images.find('busybox');
    const untagged = await model.images.create({ parent: busybox, config: { ...busybox.config, Labels: MARK }, createdBy: 'a' });
    const tagged = await model.images.create({ parent: busybox, config: { ...busybox.config, Labels: { ...MARK, n: '2' } }, createdBy: 'b', tags: ['kept:1'] });
    expect((await model.pruner.pruneImages({ label: ['shipshape.prune=yes'] })).ImagesDeleted).toEqual([{ Deleted: untagged.id }]);
    expect((await model.pruner.pruneImages({ label: ['shipshape.prune=yes'], dangling: false })).ImagesDeleted).toEqual([{ Untagged: 'kept:1' }, { Deleted: tagged.id }]);
    expect(model.images.find('busybox')).toBe(busybox);
  });
});

describe('diskUsage', () => {
  test('counts each layer once, the containers of each image, and the users of each volume', () => {
    const { model, create } = manualEngine();
    model.volumes.create({ name: 'data' });
    create(['true'], { hostConfig: { Binds: ['data:/data'] } });
    const usage = diskUsage(model.images, model.containers, model.volumes);
    const busybox = model.images.find('busybox');
    expect(usage.layersSize).toBe(busybox.size);
    expect(usage.images.find((item) => item.image === busybox)?.containers).toBe(1);
    expect(usage.volumes.map(({ volume, refCount }) => [volume.name, refCount])).toEqual([['data', 1]]);
    expect(usage.containers[0]?.size.rw).toBe(0);
  });
});

describe('prune locks', () => {
  test('a second prune while one of the same lock runs is a conflict (containers and networks share one, as on dockerd)', async () => {
    const { model, create } = manualEngine();
    create(['true'], { config: { Labels: MARK } });
    const first = model.pruner.pruneContainers({});
    await expect(model.pruner.pruneNetworks({})).rejects.toThrow('a prune operation is already running');
    await expect(model.pruner.pruneVolumes({})).resolves.toMatchObject({ VolumesDeleted: [] });
    await first;
    await expect(model.pruner.pruneNetworks({})).resolves.toEqual({ NetworksDeleted: [] });
  });
});
