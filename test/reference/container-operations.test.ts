/** update and resize of the model: what they change, what they refuse, the events they publish. */
import { describe, expect, test } from 'vitest';
import { ConflictError, InvalidParameterError, NotRunningError } from '../../reference/engine/model/common/errors.ts';
import { manualEngine } from './manual-engine.ts';

const MIB = 1024 * 1024;

describe('update', () => {
  test('sets the limits it is given, keeps those it is not (0 or absent), and publishes update', () => {
    const { model, create, events } = manualEngine();
    const container = create(['true'], { hostConfig: { CpuShares: 100, Memory: 32 * MIB, MemorySwap: 64 * MIB } });
    model.operations.update(container, { resources: { CpuShares: 512, CpuQuota: 0, BlkioWeight: 300 } });
    expect(container.hostConfig).toMatchObject({ CpuShares: 512, Memory: 32 * MIB, MemorySwap: 64 * MIB, BlkioWeight: 300, CpuQuota: 0 });
    expect(events.at(-1)).toBe('update');
  });

  test('PidsLimit is validated but not updated (the engine updates it from API 1.40 only)', () => {
    const { model, create } = manualEngine();
    const container = create(['true']);
    model.operations.update(container, { resources: { PidsLimit: 10 } });
    expect(container.hostConfig.PidsLimit).toBe(0);
  });

  test.each([
    ['unset', 0],
    ['unlimited', -1],
    ['below the new memory', 16 * MIB],
  ])('a Memory above the current swap limit (%s) needs a MemorySwap in the same update', (_, swap) => {
    const { model, create } = manualEngine();
    const container = create(['true'], { hostConfig: swap > 0 ? { Memory: 8 * MIB, MemorySwap: swap } : { MemorySwap: swap } });
    expect(() => model.operations.update(container, { resources: { Memory: 32 * MIB } })).toThrow(
      new ConflictError(`Cannot update container ${container.id}: Memory limit should be smaller than already set memoryswap limit, update the memoryswap at the same time`),
    );
    model.operations.update(container, { resources: { Memory: 32 * MIB, MemorySwap: -1 } });
    expect(container.hostConfig).toMatchObject({ Memory: 32 * MIB, MemorySwap: -1 });
  });

  test('a Memory under the current swap limit needs no new one', () => {
    const { model, create } = manualEngine();
    const container = create(['true'], { hostConfig: { Memory: 8 * MIB, MemorySwap: 64 * MIB } });
    model.operations.update(container, { resources: { Memory: 32 * MIB } });
    expect(container.hostConfig).toMatchObject({ Memory: 32 * MIB, MemorySwap: 64 * MIB });
  });

  test('values out of range are refused before anything changes', () => {
    const { model, create } = manualEngine();
    const container = create(['true'], { hostConfig: { CpuShares: 100 } });
    expect(() => model.operations.update(container, { resources: { CpuShares: 512, MemorySwappiness: 101 } })).toThrow(InvalidParameterError);
    expect(() => model.operations.update(container, { resources: { KernelMemory: MIB } }, { kernelMemoryMinimum: true })).toThrow(InvalidParameterError);
    expect(container.hostConfig.CpuShares).toBe(100);
  });

  test('a restart policy other than no is refused for an AutoRemove container, running or not', async () => {
    const { model, run, advance } = manualEngine();
    const container = run(['sleep', '300'], { hostConfig: { AutoRemove: true } });
    await advance();
    const always = { Name: 'always', MaximumRetryCount: 0 };
    expect(() => model.operations.update(container, { restartPolicy: always })).toThrow(
      new ConflictError(`Cannot update container ${container.id}: Restart policy cannot be updated because AutoRemove is enabled for the container`),
    );
    model.operations.update(container, { restartPolicy: { Name: 'no', MaximumRetryCount: 0 } });
    expect(container.hostConfig.RestartPolicy).toEqual({ Name: 'no', MaximumRetryCount: 0 });
  });
});

describe('resize', () => {
  test('of a running container: the resize event carries height and width', async () => {
    const { model, run, advance } = manualEngine();
    const container = run(['sleep', '300'], { config: { Tty: true } });
    await advance();
    const published: Record<string, string>[] = [];
    model.events.subscribe(({ action, attributes }) => action === 'resize' && published.push(attributes));
    model.operations.resize(container, 40, 100);
    expect(published).toEqual([expect.objectContaining({ height: '40', width: '100' })]);
  });

  test('of a container that is not running: refused, no event', () => {
    const { model, create, events } = manualEngine();
    const container = create(['sleep', '300'], { config: { Tty: true } });
    expect(() => model.operations.resize(container, 40, 100)).toThrow(NotRunningError);
    expect(events).not.toContain('resize');
  });
});
