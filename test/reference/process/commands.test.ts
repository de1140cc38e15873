import { describe, expect, test } from 'vitest';
import { busyboxFilesystem, finish, run, sh, start } from './run-process.ts';

describe('echo', () => {
  test.each([
    [['echo', 'hi', 'there'], 'hi there\n'],
    [['echo'], '\n'],
    [['echo', '-n', 'hi'], 'hi'],
    [['echo', '-n'], ''],
    [['echo', '-x', 'a'], '-x a\n'],
    [['echo', '-nx', 'a'], '-nx a\n'],
    [['echo', '--', 'a'], '-- a\n'],
    [['echo', 'a', '-n'], 'a -n\n'],
    [['echo', '-e', 'a\\tb\\nc'], 'a\tb\nc\n'],
    [['echo', '-ne', 'a\\nb'], 'a\nb'],
    [['echo', '-e', 'a\\c b'], 'a'],
    [['echo', '-e', '\\x41\\0101\\101'], 'AAA\n'],
    [['echo', 'a\\tb'], 'a\\tb\n'],
  ])('%j prints %j', async (argv, output) => {
    const result = await run(argv);
    expect(result).toMatchObject({ exitCode: 0, stdout: output, stderr: '' });
  });
});

describe('true and false', () => {
  test('exit 0 and 1, whatever their arguments', async () => {
    expect((await run(['true', 'x'])).exitCode).toBe(0);
    expect((await run(['false', 'x'])).exitCode).toBe(1);
  });
});

describe('cat', () => {
  test('prints files in order', async () => {
    const fs = busyboxFilesystem();
    fs.writeFile('/tmp/a', 'A\n');
    fs.writeFile('/tmp/b', 'B');
    expect(await run(['cat', '/tmp/a', 'b'], { fs, workingDir: '/tmp' })).toMatchObject({ exitCode: 0, stdout: 'A\nB' });
  });

  test('a missing file: busybox message, exit 1, the other files still printed', async () => {
    const fs = busyboxFilesystem();
    fs.writeFile('/tmp/a', 'A\n');
    expect(await run(['cat', '/tmp/a', '/nope', '/tmp/a'], { fs })).toMatchObject({
      exitCode: 1,
      stdout: 'A\nA\n',
      stderr: "cat: can't open '/nope': No such file or directory\n",
    });
  });

  test('a directory is a read error', async () => {
    expect(await run(['cat', '/tmp'])).toMatchObject({ exitCode: 1, stderr: 'cat: read error: Is a directory\n' });
  });

  test('options outside the contract are refused, not ignored', async () => {
    const result = await run(['cat', '-n', '/etc/passwd']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('outside the fixture command contract');
  });
});

describe('ls', () => {
  function tree() {
    const fs = busyboxFilesystem();
    fs.mkdir('/d');
    for (const name of ['b', 'a', '.h', 'B']) fs.writeFile(`/d/${name}`, '');
    fs.writeFile('/f', '');
    return fs;
  }

  test('one name per line, sorted bytewise, hidden names left out', async () => {
    expect(await run(['ls', '/d'], { fs: tree() })).toMatchObject({ exitCode: 0, stdout: 'B\na\nb\n' });
  });

  test('-a adds . and .. and hidden names; -A only hidden names', async () => {
    expect((await run(['ls', '-a', '/d'], { fs: tree() })).stdout).toBe('.\n..\n.h\nB\na\nb\n');
    expect((await run(['ls', '-A', '/d'], { fs: tree() })).stdout).toBe('.h\nB\na\nb\n');
  });

  test('without operand: the working directory', async () => {
    expect((await run(['ls'], { fs: tree(), workingDir: '/d' })).stdout).toBe('B\na\nb\n');
  });

  test('files first, then each directory under a heading', async () => {
    expect((await run(['ls', '/d', '/f'], { fs: tree() })).stdout).toBe('/f\n\n/d:\nB\na\nb\n');
  });

  test('a missing path: busybox 1.35 message, exit 1, the rest still listed', async () => {
    expect(await run(['ls', '/nope', '/d'], { fs: tree() })).toMatchObject({
      exitCode: 1,
      stdout: '/d:\nB\na\nb\n',
      stderr: 'ls: /nope: No such file or directory\n',
    });
  });

  test('an invalid option is busybox\'s error and usage; -R is outside the contract', async () => {
    const invalid = await run(['ls', '-z']);
    expect(invalid.exitCode).toBe(1);
    expect(invalid.stderr).toMatch(/^ls: invalid option -- 'z'\nBusyBox v1\.35\.0.*\n\nUsage: ls /);
    expect((await run(['ls', '-R', '/'])).stderr).toBe('ls: option -R is outside the fixture command contract (Shipshape reference)\n');
  });
});

describe('mkdir, touch, rm', () => {
  test('mkdir -p makes the parents and accepts an existing directory', async () => {
    const result = await run(['mkdir', '-p', '/a/b/c', '/tmp']);
    expect(result.exitCode).toBe(0);
    expect(result.fs.stat('/a/b/c')?.kind).toBe('directory');
  });

  test('mkdir without -p: existing and missing parent are errors', async () => {
    expect(await run(['mkdir', '/tmp'])).toMatchObject({ exitCode: 1, stderr: "mkdir: can't create directory '/tmp': File exists\n" });
    expect(await run(['mkdir', 'x/y'])).toMatchObject({ exitCode: 1, stderr: "mkdir: can't create directory 'x/y': No such file or directory\n" });
  });

  test('mkdir -p through a file', async () => {
    const fs = busyboxFilesystem();
    fs.writeFile('/f', '');
    const result = await run(['mkdir', '-p', '/f/x'], { fs });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('Not a directory');
  });

  test('touch creates an empty file and leaves an existing one\'s content', async () => {
    const fs = busyboxFilesystem();
    fs.writeFile('/tmp/kept', 'data');
    const result = await run(['touch', '/tmp/new', 'kept'], { fs, workingDir: '/tmp' });
    expect(result.exitCode).toBe(0);
    expect(fs.readFile('/tmp/new').toString()).toBe('');
    expect(fs.readFile('/tmp/kept').toString()).toBe('data');
    expect(await run(['touch', '/nope/x'])).toMatchObject({ exitCode: 1, stderr: 'touch: /nope/x: No such file or directory\n' });
  });

  test('rm removes files; a directory needs -r; a missing path is an error unless -f', async () => {
    const fs = busyboxFilesystem();
    fs.writeFile('/tmp/f', '');
    fs.mkdir('/tmp/d');
    fs.writeFile('/tmp/d/x', '');
    expect((await run(['rm', '/tmp/f'], { fs })).exitCode).toBe(0);
    expect(fs.stat('/tmp/f')).toBeUndefined();
    expect(await run(['rm', '/tmp/d'], { fs })).toMatchObject({ exitCode: 1, stderr: "rm: '/tmp/d' is a directory\n" });
    expect((await run(['rm', '-rf', '/tmp/d'], { fs })).exitCode).toBe(0);
    expect(fs.stat('/tmp/d')).toBeUndefined();
    expect(await run(['rm', '/nope'], { fs })).toMatchObject({ exitCode: 1, stderr: "rm: can't remove '/nope': No such file or directory\n" });
    expect(await run(['rm', '-f', '/nope'], { fs })).toMatchObject({ exitCode: 0, stderr: '' });
  });

  test('rm without operand prints its usage', async () => {
    const result = await run(['rm', '-f']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('Usage: rm [-irf] FILE...');
  });

  test('a read-only root filesystem', async () => {
    const fs = busyboxFilesystem({ readOnly: true });
    expect(await run(['touch', '/x'], { fs })).toMatchObject({ exitCode: 1, stderr: 'touch: /x: Read-only file system\n' });
  });
});

describe('seq', () => {
  test.each([
    [['seq', '3'], '1\n2\n3\n'],
    [['seq', '0'], ''],
    [['seq', '2', '4'], '2\n3\n4\n'],
    [['seq', '3', '1'], ''],
    [['seq', '5', '-2', '1'], '5\n3\n1\n'],
    [['seq', '1', '0.5', '2'], '1.0\n1.5\n2.0\n'],
    [['seq', '1', '2.25'], '1\n2\n'],
    [['seq', '-s', ',', '3'], '1,2,3\n'],
    [['seq', '-w', '8', '10'], '08\n09\n10\n'],
  ])('%j', async (argv, output) => {
    expect(await run(argv)).toMatchObject({ exitCode: 0, stdout: output });
  });

  test('a long sequence comes whole', async () => {
    const result = await run(['seq', '20000']);
    const lines = result.stdout.split('\n');
    expect(lines).toHaveLength(20001);
    expect(lines[19999]).toBe('20000');
  });

  test('a bad number is answered with the usage', async () => {
    const result = await run(['seq', 'abc']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('Usage: seq');
  });
});

describe('env, pwd, hostname, id', () => {
  test('env prints the environment as given, in order', async () => {
    expect((await run(['env'], { env: ['B=2', 'A=1'] })).stdout).toBe('B=2\nA=1\n');
  });

  test('env -i, -u and NAME=VALUE, and running a program in that environment', async () => {
    expect((await run(['env', '-i', 'X=1'], { env: ['A=1'] })).stdout).toBe('X=1\n');
    expect((await run(['env', '-u', 'A'], { env: ['A=1', 'B=2'] })).stdout).toBe('B=2\n');
    expect((await run(['env', 'A=3', 'sh', '-c', 'echo $A'], { env: ['A=1'] })).stdout).toBe('3\n');
    expect(await run(['env', 'nope'])).toMatchObject({ exitCode: 127, stderr: "env: can't execute 'nope': No such file or directory\n" });
  });

  test('pwd and hostname', async () => {
    expect((await run(['pwd'], { workingDir: '/tmp' })).stdout).toBe('/tmp\n');
    expect((await run(['hostname'], { hostname: 'web.example' })).stdout).toBe('web.example\n');
    expect((await run(['hostname', '-s'], { hostname: 'web.example' })).stdout).toBe('web\n');
    expect(await run(['hostname', 'other'])).toMatchObject({ exitCode: 1, stderr: 'hostname: sethostname: Operation not permitted\n' });
  });

  test('id -u, -g, -n and plain id, names from /etc/passwd and /etc/group', async () => {
    expect((await run(['id', '-u'])).stdout).toBe('0\n');
    expect((await run(['id', '-u'], { user: { uid: 65534 } })).stdout).toBe('65534\n');
    expect((await run(['id', '-g'], { user: { uid: 65534 } })).stdout).toBe('65534\n');
    expect((await run(['id', '-un'], { user: { uid: 65534 } })).stdout).toBe('nobody\n');
    expect((await run(['id'])).stdout).toBe('uid=0(root) gid=0(root) groups=0(root)\n');
    expect((await run(['id'], { user: { uid: 1000 } })).stdout).toBe('uid=1000 gid=1000 groups=1000\n');
    expect(await run(['id', '-Gn'], { user: { uid: 1000 } })).toMatchObject({ exitCode: 1, stdout: '1000\n', stderr: 'id: unknown ID 1000\n' });
    expect((await run(['id', '-n'])).exitCode).toBe(1);
    expect((await run(['id', '-u', 'nobody'])).stdout).toBe('65534\n');
  });

  test('supplementary groups and whoami as busybox shows them in a container (seen on dockerd 20.10 with the same files)', async () => {
    const fs = busyboxFilesystem();
    fs.writeFile('/etc/passwd', 'root:x:0:0:root:/root:/bin/sh\nuser1:x:1000:1000::/home/user1:/bin/sh\n');
    fs.writeFile('/etc/group', 'root:x:0:\nwheel:x:10:root,user1\nuser1:x:1000:\n');
    const as = (uid: number, gid: number) => ({ fs, user: { uid, gid, name: String(uid) } });
    expect((await sh('id; id -G; id -Gn; whoami', as(0, 0))).stdout).toBe('uid=0(root) gid=0(root) groups=0(root),10(wheel)\n0 10\nroot wheel\nroot\n');
    expect((await sh('id; id -G; whoami; id user1', as(1000, 1000))).stdout).toBe(
      'uid=1000(user1) gid=1000(user1) groups=10(wheel),1000(user1)\n1000 10\nuser1\nuid=1000(user1) gid=1000(user1) groups=1000(user1),10(wheel)\n',
    );
    expect(await sh('whoami', as(4242, 0))).toMatchObject({ exitCode: 1, stderr: 'whoami: unknown uid 4242\n' });
  });
});

describe('sleep', () => {
  test('takes the sum of its arguments, decimals and suffixes, on the process clock', async () => {
    const started = start(['sleep', '1.5', '0.5s', '1m']);
    await started.clock.advance(61_999);
    expect(started.process.running).toBe(true);
    await started.clock.advance(1);
    expect(await started.process.exited).toEqual({ exitCode: 0 });
  });

  test('an invalid number and no number', async () => {
    expect(await run(['sleep', 'abc'])).toMatchObject({ exitCode: 1, stderr: "sleep: invalid number 'abc'\n" });
    expect(await run(['sleep', '1x'])).toMatchObject({ exitCode: 1, stderr: "sleep: invalid number '1x'\n" });
    expect((await run(['sleep'])).stderr).toContain('Usage: sleep [N]...');
  });
});

describe('top', () => {
  test('runs until stopped and prints nothing', async () => {
    const started = start(['top']);
    await started.clock.advance(3_600_000);
    expect(started.process.running).toBe(true);
    expect(started.stdout()).toBe('');
    started.process.signal('SIGKILL');
    expect(await finish(started, 0)).toEqual({ exitCode: 137, signal: 'SIGKILL' });
  });
});

describe('command lookup', () => {
  test('an applet by path, and busybox APPLET', async () => {
    expect((await run(['/bin/echo', 'hi'])).stdout).toBe('hi\n');
    expect((await run(['/bin/busybox', 'echo', 'hi'])).stdout).toBe('hi\n');
    expect((await run(['busybox', 'sh', '-c', 'echo $0'])).stdout).toBe('sh\n');
  });

  test('an executable script runs with its #! shell, and shows so in the process table', async () => {
    const fs = busyboxFilesystem();
    fs.mkdir('/usr/bin', { parents: true });
    fs.writeFile('/usr/bin/greet', '#!/bin/sh\necho hello $1\nsleep 5\n', { mode: 0o755 });
    const started = start(['greet', 'you'], { fs });
    await started.clock.advance(0);
    expect(started.process.processTable()[0]?.command).toBe('/bin/sh /usr/bin/greet you');
    expect(await finish(started, 5000)).toEqual({ exitCode: 0 });
    expect(started.stdout()).toBe('hello you\n');
  });

  test('an unknown program cannot start: ExecError with 127, worded as runc does', () => {
    expect(() => start(['nope'])).toThrow(expect.objectContaining({ exitCode: 127, message: 'exec: "nope": executable file not found in $PATH' }));
    expect(() => start(['/bin/nope'])).toThrow(expect.objectContaining({ exitCode: 127, message: 'exec: "/bin/nope": stat /bin/nope: no such file or directory' }));
  });

  test('a file without an x bit, or a directory, cannot start: 126', () => {
    expect(() => start(['/etc/passwd'])).toThrow(expect.objectContaining({ exitCode: 126 }));
    expect(() => start(['/tmp'])).toThrow(expect.objectContaining({ exitCode: 126 }));
  });

  test('a busybox applet outside the contract says so and exits 127', async () => {
    const result = await sh('tr a b');
    expect(result).toMatchObject({ exitCode: 127, stderr: 'tr: applet outside the fixture command contract (Shipshape reference)\n' });
  });
});

describe('tail -f', () => {
  test('prints the tail, then what is appended to the file, until killed', async () => {
    const started = start(['sh', '-c', 'echo one > /tmp/f; tail -f /tmp/f & sleep 2; echo two >> /tmp/f; wait']);
    for (let step = 0; step < 40; step++) await started.clock.advance(100);
    expect(started.stdout()).toBe('one\ntwo\n');
    started.process.signal(9);
    expect((await finish(started, 1_000)).exitCode).toBe(137);
  });
});
