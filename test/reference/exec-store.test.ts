/**
 * Exec instances in the model, on a manual clock: the container states that refuse them, the command
 * in its container's pid namespace, detached and attached starts, exit codes, detach keys, resize,
 * and dockerd's exec events with their execID.
 */
import { describe, expect, test } from 'vitest';
import { ConflictError, EngineError, InvalidParameterError, NotFoundError, NotRunningError } from '../../reference/engine/model/common/errors.ts';
import type { ExecSpec } from '../../reference/engine/model/containers/exec-instance.ts';
import { RESIZE_START_TIMEOUT_MS } from '../../reference/engine/model/containers/exec-store.ts';
import { manualEngine, type ManualEngine } from './manual-engine.ts';

const SPEC: ExecSpec = { cmd: ['true'], attachStdin: false, attachStdout: true, attachStderr: true, tty: false };

function running(engine: ManualEngine) {
  return engine.run(['sleep', '300']);
}

/** Every exec event so far, as `action execID [exitCode]`. */
function execEvents(engine: ManualEngine): string[] {
  return engine.model.events
    .since(new Date(0))
    .filter((event) => event.action.startsWith('exec_'))
    .map((event) => [event.action, event.attributes.execID, event.attributes.exitCode].filter((part) => part !== undefined).join(' | '));
}

describe('create', () => {
  test('in a running container: an instance with a fresh id, exec_create with the command and the execID', () => {
    const engine = manualEngine();
    const instance = engine.model.execs.create(running(engine), { ...SPEC, cmd: ['sh', '-c', 'exit 5'] });
    expect(engine.model.execs.find(instance.id)).toBe(instance);
    expect({ running: instance.running, exitCode: instance.exitCode, pid: instance.pid }).toEqual({ running: false, exitCode: undefined, pid: 0 });
    expect(execEvents(engine)).toEqual([`exec_create: sh -c exit 5 | ${instance.id}`]);
  });

  test('refused in a container that is not running, or paused', async () => {
    const engine = manualEngine();
    expect(() => engine.model.execs.create(engine.create(['true']), SPEC)).toThrow(NotRunningError);
    const paused = running(engine);
    engine.model.lifecycle.pause(paused);
    expect(() => engine.model.execs.create(paused, SPEC)).toThrow(/is paused, unpause the container before exec/);
  });

  test('an instance goes with its container: NotFound once the container is removed', async () => {
    const engine = manualEngine();
    const container = running(engine);
    const instance = engine.model.execs.create(container, SPEC);
    await engine.model.lifecycle.remove(container, { force: true });
    expect(() => engine.model.execs.find(instance.id)).toThrow(NotFoundError);
    expect(() => engine.model.execs.find('no-such-id')).toThrow('No such exec instance: no-such-id');
  });
});

describe('start', () => {
  test('detached: the command runs beside PID 1 as pid 2, shows in top, and its exit code is kept after exec_die', async () => {
    const engine = manualEngine();
    const container = running(engine);
    const instance = engine.model.execs.create(container, { ...SPEC, cmd: ['sh', '-c', 'sleep 1; exit 7'] });
    engine.model.execs.start(instance);
    expect(instance.running).toBe(true);
    expect(instance.pid).toBe(container.process?.processTable()[1]?.hostPid);
    await engine.advance();
    expect(engine.model.operations.top(container).Processes.map((row) => row.at(-1))).toEqual(['sleep 300', 'sh -c sleep 1; exit 7', 'sleep 1']);
    await engine.advance(1000);
    expect({ running: instance.running, exitCode: instance.exitCode }).toEqual({ running: false, exitCode: 7 });
    expect(execEvents(engine).slice(1)).toEqual([`exec_start: sh -c sleep 1; exit 7 | ${instance.id}`, `exec_die | ${instance.id} | 7`]);
  });

  test('once only: again while it runs, or after it ran, is a conflict', async () => {
    const engine = manualEngine();
    const container = running(engine);
    const instance = engine.model.execs.create(container, { ...SPEC, cmd: ['sleep', '1'] });
    engine.model.execs.start(instance);
    expect(() => engine.model.execs.start(instance)).toThrow(/is already running/);
    await engine.advance(1000);
    expect(() => engine.model.execs.start(instance)).toThrow(/has already run/);
  });

  test('refused when the container has stopped (NotRunning) or is paused (conflict) since the create', async () => {
    const engine = manualEngine();
    const stopped = running(engine);
    const orphan = engine.model.execs.create(stopped, SPEC);
    await engine.model.lifecycle.kill(stopped);
    expect(() => engine.model.execs.start(orphan)).toThrow(NotRunningError);
    const paused = running(engine);
    const frozen = engine.model.execs.create(paused, SPEC);
    engine.model.lifecycle.pause(paused);
    expect(() => engine.model.execs.checkStart(frozen)).toThrow(ConflictError);
  });

  test('a command that does not exist: InvalidParameter, exit code 126, and no process', () => {
    const engine = manualEngine();
    const container = running(engine);
    const instance = engine.model.execs.create(container, { ...SPEC, cmd: ['no-such-command'] });
    expect(() => engine.model.execs.start(instance)).toThrow(InvalidParameterError);
    expect({ running: instance.running, exitCode: instance.exitCode }).toEqual({ running: false, exitCode: 126 });
    expect(container.process?.processTable()).toHaveLength(1);
  });

  test("runs as the container's user in its working directory, with TERM only on its own terminal", async () => {
    const engine = manualEngine();
    const container = engine.run(['sleep', '300'], { config: { User: '1000', WorkingDir: '/work' } });
    const output: string[] = [];
    const attachment = engine.model.execs.startAttached(engine.model.execs.create(container, { ...SPEC, cmd: ['sh', '-c', 'id -u; pwd; echo "term=$TERM"'] }), {
      stdin: false,
      output: (_stream, chunk) => output.push(chunk.toString()),
    });
    await engine.advance();
    await attachment.ended;
    expect(output.join('')).toBe('1000\n/work\nterm=\n');
  });

  test('killed with its container: exit 137 when PID 1 dies', async () => {
    const engine = manualEngine();
    const container = running(engine);
    const instance = engine.model.execs.create(container, { ...SPEC, cmd: ['sleep', '300'] });
    engine.model.execs.start(instance);
    await engine.model.lifecycle.kill(container);
    await engine.advance();
    expect({ running: instance.running, exitCode: instance.exitCode }).toEqual({ running: false, exitCode: 137 });
  });
});

describe('attached start', () => {
  test('the client gets stdout and stderr apart from the first byte, only the attached ones', async () => {
    const engine = manualEngine();
    const container = running(engine);
    const script = { ...SPEC, cmd: ['sh', '-c', 'echo out; echo err >&2'] };
    const seen = async (spec: ExecSpec) => {
      const output: string[] = [];
      const attachment = engine.model.execs.startAttached(engine.model.execs.create(container, spec), {
        stdin: false,
        output: (stream, chunk) => output.push(`${stream}:${chunk.toString()}`),
      });
      expect(await attachment.ended).toBe('exited');
      return output;
    };
    expect(await seen(script)).toEqual(['stdout:out\n', 'stderr:err\n']);
    expect(await seen({ ...script, attachStderr: false })).toEqual(['stdout:out\n']);
    expect(await seen({ ...script, tty: true })).toEqual(['stdout:out\r\n', 'stdout:err\r\n']);
  });

  test('stdin: the end of the client input ends the command stdin (cat exits 0)', async () => {
    const engine = manualEngine();
    const instance = engine.model.execs.create(running(engine), { ...SPEC, cmd: ['cat'], attachStdin: true });
    const output: string[] = [];
    const attachment = engine.model.execs.startAttached(instance, { stdin: true, output: (_stream, chunk) => output.push(chunk.toString()) });
    attachment.write(Buffer.from('piped\n'));
    attachment.endInput();
    expect(await attachment.ended).toBe('exited');
    expect({ output: output.join(''), exitCode: instance.exitCode }).toEqual({ output: 'piped\n', exitCode: 0 });
  });

  test("the exec's detach keys end the session on a terminal, leave the command running and publish exec_detach", async () => {
    const engine = manualEngine();
    const spec = { ...SPEC, cmd: ['cat'], attachStdin: true, tty: true, detachKeys: Buffer.from([0x18]) };
    const instance = engine.model.execs.create(running(engine), spec);
    const attachment = engine.model.execs.startAttached(instance, { stdin: true, output: () => undefined });
    attachment.write(Buffer.from([0x18]));
    expect(await attachment.ended).toBe('detached');
    await engine.advance();
    expect(instance.running).toBe(true);
    expect(execEvents(engine).at(-1)).toBe(`exec_detach | ${instance.id}`);
  });
});

describe('resize', () => {
  test('a running exec: accepted; one that has ended: NotFound', async () => {
    const engine = manualEngine();
    const instance = engine.model.execs.create(running(engine), { ...SPEC, cmd: ['sleep', '1'], tty: true });
    engine.model.execs.start(instance);
    await expect(engine.model.execs.resize(instance)).resolves.toBeUndefined();
    await engine.advance(1000);
    await expect(engine.model.execs.resize(instance)).rejects.toThrow(NotFoundError);
  });

  test(`one not started yet waits for its start, up to ${RESIZE_START_TIMEOUT_MS} ms`, async () => {
    const engine = manualEngine();
    const container = running(engine);
    const late = engine.model.execs.create(container, { ...SPEC, cmd: ['sleep', '300'] });
    const waiting = engine.model.execs.resize(late);
    await engine.advance(RESIZE_START_TIMEOUT_MS - 1);
    engine.model.execs.start(late);
    await expect(waiting).resolves.toBeUndefined();
    const never = engine.model.execs.create(container, SPEC);
    const givenUp = expect(engine.model.execs.resize(never)).rejects.toThrow(new EngineError('timeout waiting for exec session ready'));
    await engine.advance(RESIZE_START_TIMEOUT_MS);
    await givenUp;
  });
});
