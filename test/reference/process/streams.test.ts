import { describe, expect, test } from 'vitest';
import { OutputStream } from '../../../reference/engine/process/output-stream.ts';
import { finish, sh, start } from './run-process.ts';

describe('stdout and stderr', () => {
  test('stay separate without a tty', async () => {
    expect(await sh('echo out; echo err >&2; cat /nope')).toMatchObject({
      stdout: 'out\n',
      stderr: "err\ncat: can't open '/nope': No such file or directory\n",
    });
  });

  test('with a tty: one stream, \\n as \\r\\n (every \\n, as ONLCR does), stderr stays empty', async () => {
    const result = await sh('echo out; echo err >&2; echo -e "a\\r\\nb"', { tty: true });
    expect(result.stdout).toBe('out\r\nerr\r\na\r\r\nb\r\n');
    expect(result.stderr).toBe('');
  });

  test('end before exited resolves, and can be read by async iteration', async () => {
    const started = start(['sh', '-c', 'echo a; sleep 1; echo b']);
    const chunks: string[] = [];
    const reading = (async () => {
      for await (const chunk of started.process.stdout) chunks.push(chunk.toString());
    })();
    await started.clock.advance(1000);
    const status = await started.process.exited;
    expect(started.process.stdout.ended).toBe(true);
    await reading;
    expect(status).toEqual({ exitCode: 0 });
    expect(chunks).toEqual(['a\n', 'b\n']);
  });

  test('OutputStream.readAll collects until the end; writes after the end are dropped', async () => {
    const stream = new OutputStream();
    const all = stream.readAll();
    stream.write(Buffer.from('x'));
    stream.write(Buffer.from('y'));
    stream.end();
    stream.write(Buffer.from('z'));
    expect((await all).toString()).toBe('xy');
  });
});

describe('stdin', () => {
  test('cat streams what is written, as it comes, until the end of stdin', async () => {
    const started = start(['cat'], { openStdin: true });
    started.process.stdin.write('first ');
    await started.clock.advance(0);
    expect(started.stdout()).toBe('first ');
    started.process.stdin.write(Buffer.from('second\n'));
    await started.clock.advance(60_000);
    expect(started.stdout()).toBe('first second\n');
    expect(started.process.running).toBe(true);
    started.process.stdin.end();
    expect(await started.process.exited).toEqual({ exitCode: 0 });
  });

  test('cat - and files mixed; sh passes its stdin on to foreground commands', async () => {
    const started = start(['sh', '-c', 'cat /etc/group - /etc/group; echo done'], { openStdin: true });
    started.process.stdin.write('typed\n');
    started.process.stdin.end();
    expect(await finish(started, 0)).toEqual({ exitCode: 0 });
    expect(started.stdout()).toBe('root:x:0:\nnogroup:x:65534:\ntyped\nroot:x:0:\nnogroup:x:65534:\ndone\n');
  });

  test('without OpenStdin the process reads /dev/null and writes are dropped', async () => {
    const started = start(['cat'], { openStdin: false });
    started.process.stdin.write('ignored');
    expect(await started.process.exited).toEqual({ exitCode: 0 });
    expect(started.stdout()).toBe('');
  });

  test('with a tty, typed input is echoed, \\r arrives as \\n, Ctrl-D ends the input', async () => {
    const started = start(['cat'], { openStdin: true, tty: true });
    started.process.stdin.write('hi\r');
    await started.clock.advance(0);
    expect(started.stdout()).toBe('hi\r\nhi\r\n');
    started.process.stdin.write('x\u0004ignored');
    expect(await started.process.exited).toEqual({ exitCode: 0 });
    expect(started.stdout()).toBe('hi\r\nhi\r\nxx');
  });

  test('input that arrives after its reader was killed goes to the next reader', async () => {
    const started = start(['sh', '-c', 'cat; cat'], { openStdin: true });
    await started.clock.advance(0);
    const firstCat = started.process.processTable().find((row) => row.pid !== 1 && row.command === 'cat');
    expect(firstCat).toBeDefined();
    started.process.namespace.signal(firstCat?.pid ?? 0, 15);
    await started.clock.advance(0);
    started.process.stdin.write('for the second\n');
    started.process.stdin.end();
    expect(await finish(started, 0)).toEqual({ exitCode: 0 });
    expect(started.stdout()).toBe('for the second\n');
  });
});

describe('freeze and thaw', () => {
  test('a frozen process makes no progress: output and timers wait for thaw; deadlines are kept', async () => {
    const started = start(['sh', '-c', 'echo a; sleep 10; echo b; sleep 10; echo c']);
    await started.clock.advance(2000);
    expect(started.stdout()).toBe('a\n');
    started.process.freeze();
    expect(started.process.frozen).toBe(true);
    await started.clock.advance(15_000); // the first sleep's deadline passes while frozen
    expect(started.stdout()).toBe('a\n');
    expect(started.process.running).toBe(true);
    started.process.thaw();
    await started.clock.advance(0);
    expect(started.stdout()).toBe('a\nb\n');
    // the second sleep started at thaw (second 17): it ends at 27
    await started.clock.advance(9999);
    expect(started.stdout()).toBe('a\nb\n');
    await started.clock.advance(1);
    expect(await started.process.exited).toEqual({ exitCode: 0 });
    expect(started.stdout()).toBe('a\nb\nc\n');
  });

  test('stdin written while frozen reaches the process at thaw', async () => {
    const started = start(['cat'], { openStdin: true });
    await started.clock.advance(0);
    started.process.freeze();
    started.process.stdin.write('held');
    started.process.stdin.end();
    await started.clock.advance(1000);
    expect(started.stdout()).toBe('');
    expect(started.process.running).toBe(true);
    started.process.thaw();
    expect(await started.process.exited).toEqual({ exitCode: 0 });
    expect(started.stdout()).toBe('held');
  });

  test('signals other than SIGKILL wait for thaw; SIGKILL goes through', async () => {
    const trapped = start(['sh', '-c', "trap 'echo got; exit 3' TERM; sleep 300 & wait"]);
    await trapped.clock.advance(0);
    trapped.process.freeze();
    trapped.process.signal('TERM');
    await trapped.clock.advance(1000);
    expect(trapped.process.running).toBe(true);
    trapped.process.thaw();
    expect(await finish(trapped, 0)).toEqual({ exitCode: 3 });
    expect(trapped.stdout()).toBe('got\n');

    const killed = start(['sleep', '300']);
    killed.process.freeze();
    killed.process.signal('KILL');
    expect(await killed.process.exited).toEqual({ exitCode: 137, signal: 'SIGKILL' });
  });

  test('a long seq pauses while frozen', async () => {
    const started = start(['seq', '100000']);
    await started.clock.advance(0);
    started.process.freeze();
    await started.clock.advance(0);
    const printed = started.stdout().length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started.stdout().length).toBe(printed);
    expect(started.process.running).toBe(true);
    started.process.thaw();
    expect(await finish(started, 0)).toEqual({ exitCode: 0 });
    expect(started.stdout().endsWith('\n99999\n100000\n')).toBe(true);
  });
});
