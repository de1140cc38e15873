import { describe, expect, test } from 'vitest';
import { PidNamespace } from '../../../reference/engine/process/pid-namespace.ts';
import { ManualScheduler } from '../../../reference/engine/process/scheduler.ts';
import { UnknownSignalError } from '../../../reference/engine/process/signals.ts';
import { busyboxFilesystem, finish, start } from './run-process.ts';

function commands(started: ReturnType<typeof start>): string[] {
  return started.process.processTable().map((row) => `${row.pid} ${row.ppid} ${row.command}`);
}

describe('PID 1', () => {
  test('ignores SIGTERM, SIGINT, SIGHUP, SIGUSR1 it has no handler for; SIGKILL kills it: 137', async () => {
    const started = start(['sleep', '300']);
    await started.clock.advance(0);
    for (const signal of ['SIGTERM', 'INT', 'hup', 10, 'QUIT']) started.process.signal(signal);
    await started.clock.advance(10_000);
    expect(started.process.running).toBe(true);
    started.process.signal('KILL');
    expect(await started.process.exited).toEqual({ exitCode: 137, signal: 'SIGKILL' });
  });

  test('`sleep 5` as PID 1 that got SIGTERM still ends normally at 5 s', async () => {
    const started = start(['sleep', '5']);
    await started.clock.advance(1000);
    started.process.signal('TERM');
    await started.clock.advance(3999);
    expect(started.process.running).toBe(true);
    await started.clock.advance(1);
    expect(await started.process.exited).toEqual({ exitCode: 0 });
  });

  test('sh -c runs its last command in its place: the process table shows it, and it is PID 1', async () => {
    const started = start(['sh', '-c', 'echo starting; sleep 300']);
    await started.clock.advance(0);
    expect(commands(started)).toEqual(['1 0 sleep 300']);
    started.process.signal('TERM');
    await started.clock.advance(1000);
    expect(started.process.running).toBe(true);
    started.process.signal('SIGKILL');
    expect(await started.process.exited).toEqual({ exitCode: 137, signal: 'SIGKILL' });
    expect(started.stdout()).toBe('starting\n');
  });

  test("trap 'exit 0' TERM; sleep 300 & wait: the trap interrupts wait, exit 0", async () => {
    const started = start(['sh', '-c', "trap 'echo bye; exit 0' TERM; sleep 300 & wait"]);
    await started.clock.advance(0);
    expect(commands(started)).toEqual([`1 0 sh -c trap 'echo bye; exit 0' TERM; sleep 300 & wait`, '2 1 sleep 300']);
    started.process.signal('SIGTERM');
    expect(await finish(started, 0)).toEqual({ exitCode: 0 });
    expect(started.stdout()).toBe('bye\n');
    // PID 1 ended: the kernel killed the rest of the namespace
    expect(started.process.processTable()).toEqual([]);
  });

  test('a trap without exit: wait returns 128+15, the script goes on', async () => {
    const started = start(['sh', '-c', "trap 'echo got' TERM; sleep 300 & wait; echo waited $?; exit 9"]);
    await started.clock.advance(0);
    started.process.signal(15);
    expect(await finish(started, 0)).toEqual({ exitCode: 9 });
    expect(started.stdout()).toBe('got\nwaited 143\n');
  });

  test("trap … TERM; sleep 300 (foreground): the trap waits until sleep has finished, as in busybox ash", async () => {
    const started = start(['sh', '-c', "trap 'echo bye; exit 0' TERM; sleep 300"]);
    await started.clock.advance(10_000);
    started.process.signal('TERM');
    await started.clock.advance(289_999);
    expect(started.process.running).toBe(true);
    expect(started.stdout()).toBe('');
    await started.clock.advance(1);
    expect(await started.process.exited).toEqual({ exitCode: 0 });
    expect(started.stdout()).toBe('bye\n');
  });

  test('a trapped INT works the same way; an untrapped signal is still ignored by PID 1 sh', async () => {
    const started = start(['sh', '-c', "trap 'echo int; exit 2' INT; sleep 300 & wait"]);
    await started.clock.advance(0);
    started.process.signal('TERM');
    await started.clock.advance(1000);
    expect(started.process.running).toBe(true);
    started.process.signal('SIGINT');
    expect(await finish(started, 0)).toEqual({ exitCode: 2 });
    expect(started.stdout()).toBe('int\n');
  });

  test('top catches the fatal signals and dies of them: as PID 1 too (143, 130, 129)', async () => {
    for (const [signal, exitCode] of [['TERM', 143], ['INT', 130], ['HUP', 129], ['USR1', 138]] as const) {
      const started = start(['top']);
      await started.clock.advance(0);
      started.process.signal(signal);
      expect(await started.process.exited).toEqual({ exitCode });
    }
  });

  test('unknown signals are refused before anything is sent', () => {
    const started = start(['sleep', '1']);
    expect(() => started.process.signal('SIGNOPE')).toThrow(UnknownSignalError);
    expect(() => started.process.signal(0)).toThrow(UnknownSignalError);
  });
});

describe('processes that are not PID 1', () => {
  function namespaceWithInit() {
    const clock = new ManualScheduler();
    const namespace = new PidNamespace({ scheduler: clock, hostPids: counter(5000) });
    const fs = busyboxFilesystem();
    const init = start(['sleep', '1000'], { clock, fs, namespace });
    return { clock, fs, namespace, init };
  }

  test('die of the signals they do not handle: 128 + N, with the signal named', async () => {
    const { clock, fs, namespace } = namespaceWithInit();
    for (const [signal, exitCode, name] of [['TERM', 143, 'SIGTERM'], ['INT', 130, 'SIGINT'], ['HUP', 129, 'SIGHUP'], ['USR2', 140, 'SIGUSR2'], [9, 137, 'SIGKILL']] as const) {
      const exec = start(['sleep', '300'], { clock, fs, namespace });
      await clock.advance(0);
      expect(exec.process.pid).toBeGreaterThan(1);
      exec.process.signal(signal);
      expect(await exec.process.exited).toEqual({ exitCode, signal: name });
    }
  });

  test('signals whose default is to ignore (CHLD, WINCH, URG) change nothing; STOP/CONT are not modelled', async () => {
    const { clock, fs, namespace } = namespaceWithInit();
    const exec = start(['sleep', '3'], { clock, fs, namespace });
    for (const signal of ['CHLD', 'WINCH', 'URG', 'STOP', 'CONT']) exec.process.signal(signal);
    await clock.advance(3000);
    expect(await exec.process.exited).toEqual({ exitCode: 0 });
  });

  test('a shell without trap dies of TERM while its foreground child lives on, orphaned', async () => {
    const { clock, fs, namespace } = namespaceWithInit();
    const exec = start(['sh', '-c', 'trap "" HUP; sleep 50; echo never'], { clock, fs, namespace });
    await clock.advance(0);
    expect(exec.process.processTable().map((row) => row.command)).toEqual(['sleep 1000', 'sh -c trap "" HUP; sleep 50; echo never', 'sleep 50']);
    exec.process.signal('TERM');
    expect(await exec.process.exited).toEqual({ exitCode: 143, signal: 'SIGTERM' });
    expect(exec.process.processTable().map((row) => row.command)).toEqual(['sleep 1000', 'sleep 50']);
    await clock.advance(50_000);
    expect(exec.process.processTable().map((row) => row.command)).toEqual(['sleep 1000']);
    expect(exec.stdout()).toBe('');
  });

  test('a shell can signal other processes of its container; PID 1 ends and takes everything with it', async () => {
    const { clock, fs, namespace, init } = namespaceWithInit();
    const victim = start(['sleep', '300'], { clock, fs, namespace });
    const killer = start(['sh', '-c', `kill -TERM ${2}; kill -KILL 1`], { clock, fs, namespace });
    await clock.advance(0);
    expect(await victim.process.exited).toEqual({ exitCode: 143, signal: 'SIGTERM' });
    expect(await init.process.exited).toEqual({ exitCode: 137, signal: 'SIGKILL' });
    expect(await killer.process.exited).toEqual({ exitCode: 137, signal: 'SIGKILL' });
    expect(namespace.size).toBe(0);
  });
});

describe('the process table', () => {
  test('PID, PPID, host pids, user, tty, time and command of every live process', async () => {
    const clock = new ManualScheduler(new Date('2024-03-01T12:00:00Z'));
    const namespace = new PidNamespace({ scheduler: clock, hostPids: counter(4000) });
    const started = start(['sh', '-c', 'sleep 300 & sleep 200 & wait'], { clock, namespace, user: { uid: 65534 } });
    await clock.advance(0);
    expect(started.process.pid).toBe(1);
    expect(started.process.hostPid).toBe(4002);
    expect(started.process.processTable()).toEqual([
      { pid: 1, ppid: 0, hostPid: 4002, hostPpid: 4001, uid: 65534, user: 'nobody', startedAt: new Date('2024-03-01T12:00:00Z'), tty: '?', time: '00:00:00', command: 'sh -c sleep 300 & sleep 200 & wait', argv: ['sh', '-c', 'sleep 300 & sleep 200 & wait'] },
      { pid: 2, ppid: 1, hostPid: 4003, hostPpid: 4002, uid: 65534, user: 'nobody', startedAt: new Date('2024-03-01T12:00:00Z'), tty: '?', time: '00:00:00', command: 'sleep 300', argv: ['sleep', '300'] },
      { pid: 3, ppid: 1, hostPid: 4004, hostPpid: 4002, uid: 65534, user: 'nobody', startedAt: new Date('2024-03-01T12:00:00Z'), tty: '?', time: '00:00:00', command: 'sleep 200', argv: ['sleep', '200'] },
    ]);
    await clock.advance(200_000);
    expect(started.process.processTable().map((row) => row.command)).toEqual(['sh -c sleep 300 & sleep 200 & wait', 'sleep 300']);
  });

  test('a background list runs in a forked shell that shows the parent\'s command line until it execs', async () => {
    const started = start(['sh', '-c', 'sleep 5 && sleep 7 & wait']);
    await started.clock.advance(0);
    expect(commands(started)).toEqual(['1 0 sh -c sleep 5 && sleep 7 & wait', '2 1 sh -c sleep 5 && sleep 7 & wait', '3 2 sleep 5']);
    await started.clock.advance(5000);
    expect(commands(started)).toEqual(['1 0 sh -c sleep 5 && sleep 7 & wait', '2 1 sleep 7']);
  });

  test('a user name comes from /etc/passwd, or is the uid', async () => {
    expect(start(['sleep', '1'], { user: { uid: 1234 } }).process.processTable()[0]?.user).toBe('1234');
    expect(start(['sleep', '1'], { user: { uid: 0 } }).process.processTable()[0]?.user).toBe('root');
    expect(start(['sleep', '1'], { user: { uid: 7, name: 'seven' } }).process.processTable()[0]?.user).toBe('seven');
  });
});

function counter(start: number): () => number {
  let next = start;
  return () => ++next;
}

describe('the real clock', () => {
  test('sleeps in real time by default (no scheduler given)', async () => {
    const { startProcess } = await import('../../../reference/engine/process/simulated-process.ts');
    const started = Date.now();
    const process = startProcess({ argv: ['sh', '-c', 'sleep 0.05; echo done'], filesystem: busyboxFilesystem() });
    const output = process.stdout.readAll();
    expect(process.isInit).toBe(true);
    expect(await process.exited).toEqual({ exitCode: 0 });
    expect((await output).toString()).toBe('done\n');
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});
