/** The container state machine on a manual clock: start, exit, stop, kill, wait, restart, pause, remove. */
import { describe, expect, test } from 'vitest';
import { ConflictError, EngineError, InvalidParameterError, NotModifiedError, NotRunningError } from '../../reference/engine/model/common/errors.ts';
import type { Container } from '../../reference/engine/model/containers/container.ts';
import { ZERO_TIME } from '../../reference/engine/model/common/timestamps.ts';
import { manualEngine } from './manual-engine.ts';

const SIGTERM = 15;
const TRAPS_TERM = ['sh', '-c', "trap 'exit 3' TERM; sleep 300 & wait"];

async function logText(container: Container): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const entry of container.log.read({ stdout: true, stderr: true })) chunks.push(entry.bytes);
  return Buffer.concat(chunks).toString();
}

/** Resolves to whether the promise settled by now (after the engine had its turn). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true), () => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('start and exit', () => {
  test('start runs Entrypoint + Cmd as PID 1: State running with the host pid and StartedAt', async () => {
    const { model, run, events } = manualEngine();
    const container = run(['sleep', '300']);
    expect(container.state).toMatchObject({ Status: 'running', Running: true, Paused: false, Restarting: false, ExitCode: 0, FinishedAt: ZERO_TIME });
    expect(container.state.Pid).toBe(container.process?.hostPid);
    expect(container.state.StartedAt).toBe('2024-03-01T12:00:00Z');
    expect(container.process?.processTable().map((row) => [row.pid, row.command])).toEqual([[1, 'sleep 300']]);
    expect(events).toEqual(['create', 'start']);
    expect(model.containers.list().map((listed) => listed.id)).toEqual([container.id]);
  });

  test('the exit of the process: exited with its code, FinishedAt, Pid 0, and a die event with the code', async () => {
    const { run, advance, events } = manualEngine();
    const container = run(['sh', '-c', 'sleep 2; exit 7']);
    await advance(2000);
    expect(container.state).toMatchObject({ Status: 'exited', Running: false, Pid: 0, ExitCode: 7, FinishedAt: '2024-03-01T12:00:02Z' });
    expect(container.process).toBeUndefined();
    expect(events).toEqual(['create', 'start', 'die:7']);
  });

  test('the process gets the environment, working directory, hostname and user of the config', async () => {
    const { run, advance } = manualEngine();
    const container = run(['sh', '-c', 'env; pwd; hostname; id -u'], {
      config: { Env: ['GREETING=hi'], WorkingDir: '/work/dir', Hostname: 'box1', User: '1000' },
    });
    await advance();
    expect(await logText(container)).toBe(
      'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\nHOSTNAME=box1\nGREETING=hi\nHOME=/\nSHLVL=1\nPWD=/work/dir\n/work/dir\nbox1\n1000\n',
    );
    expect(container.filesystem.stat('/work/dir')?.kind).toBe('directory');
  });

  test('starting a running container is NotModified; starting a paused one a conflict', () => {
    const { model, run } = manualEngine();
    const container = run(['sleep', '300']);
    expect(() => model.lifecycle.start(container)).toThrow(NotModifiedError);
    model.lifecycle.pause(container);
    expect(() => model.lifecycle.start(container)).toThrow(new ConflictError('cannot start a paused container, try unpause instead'));
  });

  test('a command that is not there: the start fails (400), the state keeps 127 and why', () => {
    const { model, create } = manualEngine();
    const container = create(['no-such-command']);
    expect(() => model.lifecycle.start(container)).toThrow(InvalidParameterError);
    expect(container.state).toMatchObject({ Status: 'created', Running: false, ExitCode: 127 });
    expect(container.state.Error).toMatch(/executable file not found in \$PATH/);
  });

  test('an unknown user fails the start with the passwd lookup error', () => {
    const { model, create } = manualEngine();
    const container = create(['true'], { config: { User: 'nobody-here' } });
    expect(() => model.lifecycle.start(container)).toThrow(new EngineError('unable to find user nobody-here: no matching entries in passwd file'));
  });
});

describe('stop', () => {
  test('PID 1 ignores SIGTERM: stop waits t seconds on the clock, then SIGKILL: 137', async () => {
    const { model, run, advance, events } = manualEngine();
    const container = run(['sleep', '300']);
    const stopping = model.lifecycle.stop(container, 2);
    await advance(1999);
    expect(await settled(stopping)).toBe(false);
    expect(container.state.Running).toBe(true);
    await advance(1);
    await stopping;
    expect(container.state).toMatchObject({ Status: 'exited', ExitCode: 137 });
    expect(events.slice(2)).toEqual(['kill:15', 'kill:9', 'die:137', 'stop']);
  });

  test('a process that traps the stop signal ends at once', async () => {
    const { model, run, advance } = manualEngine();
    const container = run(TRAPS_TERM);
    await advance();
    await model.lifecycle.stop(container, 10);
    expect(container.state.ExitCode).toBe(3);
  });

  test('the container StopSignal is sent instead of SIGTERM', async () => {
    const { model, run, advance, events } = manualEngine();
    const container = run(['sh', '-c', "trap 'exit 4' USR1; sleep 300 & wait"], { config: { StopSignal: 'SIGUSR1' } });
    await advance();
    await model.lifecycle.stop(container, 10);
    expect([container.state.ExitCode, events.slice(2)]).toEqual([4, ['kill:10', 'die:4', 'stop']]);
  });

  test('stopping a stopped container is NotModified', async () => {
    const { model, run, advance } = manualEngine();
    const container = run(['true']);
    await advance();
    await expect(model.lifecycle.stop(container)).rejects.toThrow(NotModifiedError);
  });

  test('stopping a paused container resumes it so that it can end', async () => {
    const { model, run, advance } = manualEngine();
    const container = run(TRAPS_TERM);
    await advance();
    model.lifecycle.pause(container);
    await model.lifecycle.stop(container, 10);
    expect(container.state).toMatchObject({ Status: 'exited', Paused: false, ExitCode: 3 });
  });
});

describe('kill', () => {
  test('without a signal: SIGKILL, and the call returns once the container has stopped', async () => {
    const { model, run } = manualEngine();
    const container = run(['sleep', '300']);
    await model.lifecycle.kill(container);
    expect(container.state).toMatchObject({ Running: false, ExitCode: 137 });
  });

  test('another signal is delivered to PID 1 and the call does not wait', async () => {
    const { model, run, advance } = manualEngine();
    const container = run(TRAPS_TERM);
    await advance();
    await model.lifecycle.kill(container, SIGTERM);
    expect(container.state.Running).toBe(true);
    await advance();
    expect(container.state.ExitCode).toBe(3);
  });

  test('a container that is not running cannot be killed', async () => {
    const { model, create } = manualEngine();
    await expect(model.lifecycle.kill(create(['true']))).rejects.toThrow(NotRunningError);
  });
});

describe('wait', () => {
  test('resolves with the exit code when the process ends; at once for a container not running', async () => {
    const { model, run, create, advance } = manualEngine();
    const container = run(['sh', '-c', 'sleep 5; exit 9']);
    const waiting = model.lifecycle.wait(container);
    await advance(4999);
    expect(await settled(waiting)).toBe(false);
    await advance(1);
    expect(await waiting).toBe(9);
    expect(await model.lifecycle.wait(create(['true']))).toBe(0);
  });

  test('an aborted wait is forgotten; the removal of the container ends the others', async () => {
    const { model, run } = manualEngine();
    const container = run(['sleep', '300']);
    const gaveUp = new AbortController();
    void model.lifecycle.wait(container, gaveUp.signal);
    gaveUp.abort();
    expect(container.stopWaiters.size).toBe(0);
    const waiting = model.lifecycle.wait(container);
    await model.lifecycle.remove(container, { force: true });
    expect(await waiting).toBe(137);
  });
});

describe('restart', () => {
  test('stops (t seconds, then SIGKILL) and starts again: a later StartedAt, RestartCount 0', async () => {
    const { model, run, advance, events } = manualEngine();
    const container = run(['sleep', '300']);
    const restarting = model.lifecycle.restart(container, 1);
    await advance(1000);
    await restarting;
    expect(container.state).toMatchObject({ Status: 'running', StartedAt: '2024-03-01T12:00:01Z', FinishedAt: '2024-03-01T12:00:01Z', ExitCode: 0 });
    expect(events.slice(2)).toEqual(['kill:15', 'kill:9', 'die:137', 'stop', 'start', 'restart']);
  });

  test('restart of a stopped container starts it', async () => {
    const { model, create } = manualEngine();
    const container = create(['sleep', '300']);
    await model.lifecycle.restart(container);
    expect(container.state.Running).toBe(true);
  });
});

describe('pause and unpause', () => {
  test('pause freezes the container (its clock stands still for it); unpause resumes it', async () => {
    const { model, run, advance, events } = manualEngine();
    const container = run(['sh', '-c', 'sleep 1; echo done']);
    await advance();
    model.lifecycle.pause(container);
    expect(container.state).toMatchObject({ Status: 'paused', Paused: true, Running: true });
    await advance(5000);
    expect(container.state.Running).toBe(true);
    model.lifecycle.unpause(container);
    expect(container.state).toMatchObject({ Status: 'running', Paused: false });
    await advance();
    expect(container.state).toMatchObject({ Status: 'exited', ExitCode: 0 });
    expect(events.slice(2)).toEqual(['pause', 'unpause', 'die:0']);
  });

  test('pausing a paused container is a conflict; unpausing one that is not paused a plain error; neither when stopped', () => {
    const { model, run, create } = manualEngine();
    const container = run(['sleep', '300']);
    expect(() => model.lifecycle.unpause(container)).toThrow(new EngineError(`Container ${container.id} is not paused`));
    model.lifecycle.pause(container);
    expect(() => model.lifecycle.pause(container)).toThrow(new ConflictError(`Container ${container.id} is already paused`));
    expect(() => model.lifecycle.pause(create(['true']))).toThrow(NotRunningError);
  });
});

describe('remove', () => {
  test('a running container without force is a conflict and keeps running', async () => {
    const { model, run } = manualEngine();
    const container = run(['sleep', '300']);
    await expect(model.lifecycle.remove(container)).rejects.toThrow(
      new ConflictError(`You cannot remove a running container ${container.id}. Stop the container before attempting removal or force remove`),
    );
    expect(container.state.Running).toBe(true);
    expect(model.containers.has(container)).toBe(true);
  });

  test('with force it is killed, then removed: die and destroy', async () => {
    const { model, run, events } = manualEngine();
    const container = run(['sleep', '300']);
    await model.lifecycle.remove(container, { force: true });
    expect(model.containers.has(container)).toBe(false);
    expect(events.slice(2)).toEqual(['kill:9', 'die:137', 'destroy']);
  });

  test('a second removal while the first is under way is a conflict', async () => {
    const { model, run } = manualEngine();
    const container = run(['sleep', '300']);
    const first = model.lifecycle.remove(container, { force: true });
    await expect(model.lifecycle.remove(container, { force: true })).rejects.toThrow(/already in progress/);
    await first;
  });

  test('AutoRemove: the container goes when its process ends', async () => {
    const { model, run, advance, events } = manualEngine();
    const container = run(['true'], { hostConfig: { AutoRemove: true } });
    await advance();
    expect(model.containers.has(container)).toBe(false);
    expect(events.slice(2)).toEqual(['die:0', 'destroy']);
  });

  test('AutoRemove does not take a container that restart stops', async () => {
    const { model, run, advance } = manualEngine();
    const container = run(TRAPS_TERM, { hostConfig: { AutoRemove: true } });
    await advance();
    await model.lifecycle.restart(container, 10);
    expect([model.containers.has(container), container.state.Running, container.hostConfig.AutoRemove]).toEqual([true, true, true]);
  });
});

describe('reset', () => {
  test('ends every process and forgets every container, quietly', async () => {
    const { model, run, advance, events } = manualEngine();
    const container = run(['sleep', '300']);
    model.reset();
    await advance();
    expect([container.state.Running, model.containers.size, events.slice(2)]).toEqual([false, 0, []]);
  });
});
