/** Healthchecks of the model on a manual clock: probes, status changes, log, events, and their end. */
import { describe, expect, test } from 'vitest';
import { probeCommand } from '../../reference/engine/model/containers/container-health.ts';
import { manualEngine } from './manual-engine.ts';

const MS = 1_000_000;

describe('probeCommand', () => {
  test('CMD runs its words, CMD-SHELL a shell, NONE and an empty test nothing', () => {
    expect(probeCommand(['CMD', 'true'])).toEqual(['true']);
    expect(probeCommand(['CMD-SHELL', 'exit 1'])).toEqual(['/bin/sh', '-c', 'exit 1']);
    expect(probeCommand(['NONE'])).toBeUndefined();
    expect(probeCommand([])).toBeUndefined();
  });
});

describe('HealthMonitor', () => {
  test('starting until Retries failures make it unhealthy, with one health_status event and the probes in the log', async () => {
    const { model, run, advance, events } = manualEngine();
    const container = run(['sleep', '300'], { config: { Healthcheck: { Test: ['CMD-SHELL', 'echo no; exit 2'], Interval: 100 * MS, Retries: 2 } } });
    expect(container.state.Health).toEqual({ Status: 'starting', FailingStreak: 0, Log: [] });
    await advance(150);
    expect(container.state.Health).toMatchObject({ Status: 'starting', FailingStreak: 1 });
    for (let step = 0; step < 8; step++) await advance(100);
    const health = container.state.Health;
    expect(health?.Status).toBe('unhealthy');
    expect(health?.Log).toHaveLength(5);
    expect(health?.Log.at(-1)).toMatchObject({ ExitCode: 2, Output: 'no\n' });
    expect(events.filter((action) => action.startsWith('health_status'))).toEqual(['health_status: unhealthy']);
    expect(events).toContain('exec_create: /bin/sh -c echo no; exit 2');
    model.lifecycle.shutdown();
  });

  test('a success makes it healthy; the end of the process leaves it unhealthy and stops the probes; a start resets it', async () => {
    const { model, run, advance, events } = manualEngine();
    const container = run(['sleep', '300'], { config: { Healthcheck: { Test: ['CMD', 'true'], Interval: 100 * MS } } });
    await advance(150);
    expect(container.state.Health?.Status).toBe('healthy');
    expect(events).toContain('health_status: healthy');
    await model.lifecycle.kill(container);
    await advance(10);
    expect(container.state.Health).toMatchObject({ Status: 'unhealthy', FailingStreak: 0 });
    const probes = events.filter((action) => action.startsWith('exec_create')).length;
    await advance(500);
    expect(events.filter((action) => action.startsWith('exec_create')).length).toBe(probes);
    model.lifecycle.start(container);
    expect(container.state.Health).toMatchObject({ Status: 'starting', FailingStreak: 0 });
    expect(container.state.Health?.Log.length).toBeGreaterThan(0);
    model.lifecycle.shutdown();
  });

  test('failures within StartPeriod do not count while it is starting', async () => {
    const { model, run, advance } = manualEngine();
    const container = run(['sleep', '300'], { config: { Healthcheck: { Test: ['CMD', 'false'], Interval: 100 * MS, Retries: 1, StartPeriod: 1000 * MS } } });
    for (let step = 0; step < 5; step++) await advance(100);
    expect(container.state.Health).toMatchObject({ Status: 'starting', FailingStreak: 0 });
    for (let step = 0; step < 8; step++) await advance(100);
    expect(container.state.Health?.Status).toBe('unhealthy');
    model.lifecycle.shutdown();
  });

  test('a probe longer than Timeout fails with exit code -1', async () => {
    const { model, run, advance } = manualEngine();
    const container = run(['sleep', '300'], { config: { Healthcheck: { Test: ['CMD', 'sleep', '5'], Interval: 100 * MS, Timeout: 200 * MS, Retries: 1 } } });
    for (let step = 0; step < 5; step++) await advance(100);
    expect(container.state.Health?.Log[0]).toMatchObject({ ExitCode: -1, Output: 'Health check exceeded timeout (0.2s)' });
    expect(container.state.Health?.Status).toBe('unhealthy');
    model.lifecycle.shutdown();
  });
});
