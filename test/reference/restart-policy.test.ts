/** Restart policies: the back-off rule on its own, then the policies driving containers on a manual clock. */
import { describe, expect, test } from 'vitest';
import { RestartManager } from '../../reference/engine/model/containers/restart-manager.ts';
import { manualEngine } from './manual-engine.ts';

describe('RestartManager', () => {
  test('the delay starts at 100 ms and doubles, up to a minute', () => {
    const manager = new RestartManager({ Name: 'always', MaximumRetryCount: 0 }, 0);
    const delays = Array.from({ length: 12 }, () => manager.nextRestartDelay(0, false, 0));
    expect(delays).toEqual([100, 200, 400, 800, 1600, 3200, 6400, 12_800, 25_600, 51_200, 60_000, 60_000]);
  });

  test('a run of 10 s or more starts the delay over', () => {
    const manager = new RestartManager({ Name: 'always', MaximumRetryCount: 0 }, 0);
    manager.nextRestartDelay(0, false, 0);
    manager.nextRestartDelay(0, false, 0);
    expect(manager.nextRestartDelay(0, false, 10_000)).toBe(100);
  });

  test.each([
    ['', 1, false, undefined],
    ['no', 1, false, undefined],
    ['always', 0, true, 100],
    ['unless-stopped', 0, false, 100],
    ['unless-stopped', 0, true, undefined],
    ['on-failure', 1, false, 100],
    ['on-failure', 0, false, undefined],
  ])('%j after exit code %i (stopped on purpose: %s): %s', (name, exitCode, manuallyStopped, expected) => {
    const manager = new RestartManager({ Name: name, MaximumRetryCount: 0 }, 0);
    expect(manager.nextRestartDelay(exitCode, manuallyStopped, 0)).toBe(expected);
  });

  test('on-failure counts its retries from the restarts the container already had', () => {
    const manager = new RestartManager({ Name: 'on-failure', MaximumRetryCount: 3 }, 1);
    expect([manager.nextRestartDelay(1, false, 0), manager.nextRestartDelay(1, false, 0), manager.nextRestartDelay(1, false, 0)]).toEqual([100, 200, undefined]);
  });

  test('a cancelled manager restarts nothing', () => {
    const manager = new RestartManager({ Name: 'always', MaximumRetryCount: 0 }, 0);
    manager.cancel();
    expect(manager.nextRestartDelay(1, false, 0)).toBeUndefined();
  });
});

describe('policies driving containers', () => {
  test('always: restarting between runs, after 100 ms then 200 ms, counting RestartCount', async () => {
    const { run, advance, events } = manualEngine();
    const container = run(['false'], { hostConfig: { RestartPolicy: { Name: 'always', MaximumRetryCount: 0 } } });
    await advance();
    expect(container.state).toMatchObject({ Status: 'restarting', Running: true, Restarting: true, Pid: 0, ExitCode: 1 });
    expect(container.restartCount).toBe(1);
    await advance(99);
    expect(container.state.Status).toBe('restarting');
    await advance(1);
    expect(container.restartCount).toBe(2);
    await advance(199);
    expect(container.restartCount).toBe(2);
    await advance(1);
    expect(container.restartCount).toBe(3);
    expect(events.slice(1, 7)).toEqual(['start', 'die:1', 'start', 'die:1', 'start', 'die:1']);
  });

  test('on-failure with MaximumRetryCount 2: two restarts, then exited', async () => {
    const { run, advance } = manualEngine();
    const container = run(['sh', '-c', 'exit 5'], { hostConfig: { RestartPolicy: { Name: 'on-failure', MaximumRetryCount: 2 } } });
    await advance(1000);
    expect(container.state).toMatchObject({ Status: 'exited', ExitCode: 5 });
    expect(container.restartCount).toBe(2);
  });

  test('on-failure leaves a successful exit alone', async () => {
    const { run, advance } = manualEngine();
    const container = run(['true'], { hostConfig: { RestartPolicy: { Name: 'on-failure', MaximumRetryCount: 0 } } });
    await advance(1000);
    expect([container.state.Status, container.restartCount]).toEqual(['exited', 0]);
  });

  test('stop calls the restarts off, and a start by the user begins a new count', async () => {
    const { model, run, advance } = manualEngine();
    const container = run(['false'], { hostConfig: { RestartPolicy: { Name: 'always', MaximumRetryCount: 0 } } });
    await advance(100);
    expect(container.restartCount).toBe(2);
    await model.lifecycle.stop(container);
    await advance(10_000);
    expect(container.state).toMatchObject({ Status: 'exited', Restarting: false, ExitCode: 1 });
    model.lifecycle.start(container);
    expect(container.restartCount).toBe(0);
  });

  test('a wait ends at each death, also one the policy follows with a restart', async () => {
    const { model, run, advance } = manualEngine();
    const container = run(['sh', '-c', 'sleep 1; exit 2'], { hostConfig: { RestartPolicy: { Name: 'always', MaximumRetryCount: 0 } } });
    const waiting = model.lifecycle.wait(container);
    await advance(1000);
    expect(await waiting).toBe(2);
    expect(container.state.Status).toBe('restarting');
  });

  test('unless-stopped stays down after a kill with another signal ends the process', async () => {
    const { model, run, advance } = manualEngine();
    const container = run(['sh', '-c', "trap 'exit 6' USR1; sleep 300 & wait"], { hostConfig: { RestartPolicy: { Name: 'unless-stopped', MaximumRetryCount: 0 } } });
    await advance();
    await model.lifecycle.kill(container, 10);
    await advance(1000);
    expect([container.state.Status, container.state.ExitCode, container.restartCount]).toEqual(['exited', 6, 0]);
  });

  test('update changes the policy of the runs to come', async () => {
    const { model, run, advance } = manualEngine();
    const container = run(['sh', '-c', 'sleep 1; exit 1']);
    model.operations.update(container, { restartPolicy: { Name: 'on-failure', MaximumRetryCount: 1 } });
    await advance(1000);
    expect(container.state.Status).toBe('restarting');
    await advance(2000);
    expect([container.state.Status, container.restartCount]).toEqual(['exited', 1]);
  });
});
