import { describe, expect, test } from 'vitest';
import { busyboxFilesystem, finish, sh, start } from './run-process.ts';

describe('sh: lists and exit status', () => {
  test.each([
    ['echo hi; exit 3', 3, 'hi\n'],
    ['exit 300', 44, ''],
    ['exit', 0, ''],
    ['false; exit', 1, ''],
    ['false', 1, ''],
    ['true; false; true', 0, ''],
    ['false && echo x || echo y', 0, 'y\n'],
    ['true || echo x && echo y', 0, 'y\n'],
    ['false && echo x', 1, ''],
    ['true && false || false', 1, ''],
    ['exit 1 || echo y', 1, ''],
    ['false; echo $?; true; echo $?', 0, '1\n0\n'],
    ['! true; echo $?; ! false; echo $?', 0, '1\n0\n'],
    ['echo a;echo b&&echo c||echo d', 0, 'a\nb\nc\n'],
    ['nope; echo $?', 0, '127\n'],
    ['echo a\necho b\n\n# a comment\nexit 4', 4, 'a\nb\n'],
    ['true &&\necho continued', 0, 'continued\n'],
  ])('%j exits %d', async (script, exitCode, stdout) => {
    expect(await sh(script)).toMatchObject({ exitCode, stdout });
  });

  test('exit with a bad number is an error of the shell: 2', async () => {
    expect(await sh('exit abc; echo after')).toMatchObject({ exitCode: 2, stdout: '', stderr: 'sh: exit: line 0: Illegal number: abc\n' });
    expect((await sh('exit -1')).exitCode).toBe(2);
  });

  test('an unknown command: busybox wording, 127, the script goes on', async () => {
    expect(await sh('nope; echo after')).toMatchObject({ exitCode: 0, stdout: 'after\n', stderr: 'sh: nope: not found\n' });
    expect(await sh('/bin/nope')).toMatchObject({ exitCode: 127, stderr: 'sh: /bin/nope: not found\n' });
    expect(await sh('/etc/passwd')).toMatchObject({ exitCode: 126, stderr: 'sh: /etc/passwd: Permission denied\n' });
  });

  test('messages name $0 and carry line numbers where ash puts them', async () => {
    expect((await run0(['/bin/sh', '-c', 'nope'])).stderr).toBe('/bin/sh: nope: not found\n');
    expect((await run0(['sh', '-c', 'nope', 'myname'])).stderr).toBe('myname: line 0: nope: not found\n');
    expect((await sh('true\ncd /nope')).stderr).toBe("sh: cd: line 1: can't cd to /nope: No such file or directory\n");
  });

  test('syntax errors: ash wording, exit 2, lines before the bad one run', async () => {
    expect(await sh('echo a &&')).toMatchObject({ exitCode: 2, stderr: 'sh: syntax error: unexpected end of file\n' });
    expect(await sh('echo a\necho "b')).toMatchObject({ exitCode: 2, stdout: 'a\n', stderr: 'sh: syntax error: unterminated quoted string\n' });
  });

  test('constructs outside the contract fail loudly', async () => {
    expect(await sh('(echo a)')).toMatchObject({ exitCode: 2, stderr: 'sh: a subshell ( … ) is outside the fixture command contract (Shipshape reference)\n' });
    expect((await sh('read -p x y')).stderr).toContain('outside the fixture command contract');
  });

  test('-c without a script, and options outside the contract', async () => {
    expect(await run0(['sh', '-c'])).toMatchObject({ exitCode: 2, stderr: 'sh: -c requires an argument\n' });
    expect((await run0(['sh', '-e', '-c', 'true'])).exitCode).toBe(2);
  });
});

async function run0(argv: string[]) {
  const started = start(argv);
  const status = await finish(started, 0);
  return { ...status, stdout: started.stdout(), stderr: started.stderr() };
}

describe('sh: expansion and quoting', () => {
  test.each([
    [`echo "a  b" 'c  d' e\\ \\ f`, 'a  b c  d e  f\n'],
    [`echo 'it''s' "q\\"uote" 'back\\slash' "\\$HOME" '$HOME'`, 'its q"uote back\\slash $HOME $HOME\n'],
    ['X=1; echo $X ${X} "$X" x${X}y', '1 1 1 x1y\n'],
    ['X="a  b"; echo $X; echo "$X"', 'a b\na  b\n'],
    ['echo [$UNSET] ["$UNSET"]', '[] []\n'],
    ['echo ${UNSET:-dflt} ${UNSET-dflt} ${E:-d2} ${E-d3}x', 'dflt dflt d2 x\n'],
    ['X=v; echo ${X:+alt} ${UNSET:+alt}end', 'alt end\n'],
    ['echo ${A:=set}; echo $A', 'set\nset\n'],
    ['X=hello; echo ${#X}', '5\n'],
    ['echo ${UNSET:-a  b} "${UNSET:-a  b}"', 'a b a  b\n'],
    ['echo $HOME ~ ~/x a~', '/root /root /root/x a~\n'],
    ['echo $0 $# "$1"', 'sh 0 \n'],
    ['echo "$"x $', '$x $\n'],
    ['A=1 B=2; echo $A$B', '12\n'],
  ])('%j prints %j', async (script, stdout) => {
    expect(await sh(script, { env: ['HOME=/root', 'E='] })).toMatchObject({ exitCode: 0, stdout });
  });

  test('positional parameters, $0 from the NAME operand, set --', async () => {
    const result = await run0(['sh', '-c', 'echo $0 $#; echo "[$1]" [$2] "$*"; set -- x "y z"; echo $# $2', 'name', 'a  b', 'c']);
    expect(result.stdout).toBe('name 2\n[a  b] [c] a  b c\n2 y z\n');
  });

  test('"$@" keeps each parameter one field; unquoted $@ splits', async () => {
    const result = await run0(['sh', '-c', 'touch "$@"; ls /tmp; rm /tmp/*; touch $@; ls /tmp', 'sh', '/tmp/a b', '/tmp/c']);
    expect(result.stdout).toBe('a b\nc\na\nc\n');
  });

  test('a function definition is outside the contract', async () => {
    expect((await sh('f() { echo; }')).stderr).toBe('sh: a function definition is outside the fixture command contract (Shipshape reference)\n');
  });

  test('$? $$ and $!', async () => {
    const result = await sh('echo $$; sleep 1 & echo $!; false; echo $?', { maxMs: 2000 });
    expect(result.stdout).toBe('1\n2\n1\n');
  });

  test('pathname expansion against the container filesystem; no match keeps the word', async () => {
    const fs = busyboxFilesystem();
    for (const name of ['a.txt', 'b.txt', 'c.log', '.hidden.txt']) fs.writeFile(`/tmp/${name}`, '');
    expect((await sh('echo /tmp/*.txt; echo /tmp/?.log; echo /tmp/[ab].txt; echo /tmp/*.none; echo "/tmp/*"', { fs })).stdout).toBe(
      '/tmp/a.txt /tmp/b.txt\n/tmp/c.log\n/tmp/a.txt /tmp/b.txt\n/tmp/*.none\n/tmp/*\n',
    );
    expect((await sh('cd /tmp; echo *.log .*.txt', { fs })).stdout).toBe('c.log .hidden.txt\n');
  });

  test('${X?} of an unset variable ends the shell', async () => {
    expect(await sh('echo ${NOPE?is required}; echo after')).toMatchObject({ exitCode: 2, stdout: '', stderr: 'sh: NOPE: is required\n' });
  });
});

describe('sh: variables and the environment', () => {
  test('the shell adds SHLVL and PWD to what it passes on', async () => {
    const result = await sh('env', { env: ['PATH=/bin', 'A=1'], workingDir: '/tmp' });
    expect(result.stdout.split('\n').filter(Boolean)).toEqual(['PATH=/bin', 'A=1', 'SHLVL=1', 'PWD=/tmp']);
  });

  test('ash sets its default PATH when there is none', async () => {
    expect((await sh('echo $PATH', { env: [] })).stdout).toBe('/sbin:/usr/sbin:/bin:/usr/bin\n');
  });

  test('plain assignments stay in the shell; export and prefix assignments reach commands', async () => {
    const result = await sh('X=1; env; export Y=2; Z=3 env; echo $Z', { env: [] });
    const lines = result.stdout.split('\n');
    expect(lines).not.toContain('X=1');
    expect(lines).toContain('Y=2');
    expect(lines).toContain('Z=3');
    expect(lines.at(-2)).toBe('');
  });

  test('unset, and export -p: sorted, values quoted as ash quotes them', async () => {
    expect((await sh(`export C=3 B=2 A="it's"; unset C; export D; export -p`, { env: [] })).stdout).toBe(
      `export A='it'"'"'s'\nexport B='2'\nexport D\nexport PATH='/sbin:/usr/sbin:/bin:/usr/bin'\nexport PWD='/'\nexport SHLVL='1'\n`,
    );
  });

  test('cd changes the working directory of later commands, PWD and OLDPWD', async () => {
    expect((await sh('cd /tmp; pwd; /bin/pwd; echo $PWD $OLDPWD; cd; pwd', { env: ['HOME=/root'] })).stdout).toBe('/tmp\n/tmp\n/tmp /\n/root\n');
    expect(await sh('cd /nope; echo $?')).toMatchObject({ stdout: '2\n', stderr: "sh: cd: line 0: can't cd to /nope: No such file or directory\n" });
  });
});

describe('sh: redirections', () => {
  test('> truncates, >> appends, into the container filesystem', async () => {
    const result = await sh('echo one > /tmp/f; echo two >> /tmp/f; echo three >>/tmp/g; cat /tmp/f /tmp/g; echo new >/tmp/f; cat /tmp/f');
    expect(result.stdout).toBe('one\ntwo\nthree\nnew\n');
    expect(result.fs.readFile('/tmp/f').toString()).toBe('new\n');
  });

  test('relative to the working directory, and in the middle of the words', async () => {
    const result = await sh('cd /tmp; echo a >out b; cat out');
    expect(result.stdout).toBe('a b\n');
    expect(result.fs.readFile('/tmp/out').toString()).toBe('a b\n');
  });

  test('>&2 and 1>&2 send stdout to stderr; 2>&1 the other way; order matters', async () => {
    expect(await sh('echo a >&2; echo b 1>&2; echo c')).toMatchObject({ stdout: 'c\n', stderr: 'a\nb\n' });
    expect(await sh('cat /nope 2>&1')).toMatchObject({ stdout: "cat: can't open '/nope': No such file or directory\n", stderr: '' });
    const both = await sh('cat /etc/group /nope >/tmp/all 2>&1; cat /nope 2>&1 >/tmp/out');
    expect(both.fs.readFile('/tmp/all').toString()).toBe("root:x:0:\nnogroup:x:65534:\ncat: can't open '/nope': No such file or directory\n");
    expect(both.stdout).toBe("cat: can't open '/nope': No such file or directory\n");
  });

  test('redirecting a command that fails: the message goes where stderr points', async () => {
    expect(await sh('nope 2>/tmp/err; cat /tmp/err')).toMatchObject({ stdout: 'sh: nope: not found\n', stderr: '' });
  });

  test('< reads a file as stdin', async () => {
    expect((await sh('cat < /etc/group')).stdout).toBe('root:x:0:\nnogroup:x:65534:\n');
    expect(await sh('cat < /nope; echo $?')).toMatchObject({ stdout: '1\n', stderr: "sh: can't open /nope: no such file\n" });
  });

  test('a redirection that cannot be made: ash wording, status 1, the command does not run', async () => {
    expect(await sh('echo hi > /nonexist/x; echo $?')).toMatchObject({ stdout: '1\n', stderr: "sh: can't create /nonexist/x: nonexistent directory\n" });
    expect(await sh('echo hi > /tmp')).toMatchObject({ exitCode: 1, stderr: "sh: can't create /tmp: Is a directory\n" });
  });

  test('a redirection alone creates the file', async () => {
    expect((await sh('>/tmp/empty')).fs.readFile('/tmp/empty').toString()).toBe('');
  });
});

describe('sh: background jobs and wait', () => {
  test('wait waits for every job; $? of wait without operands is 0', async () => {
    const started = start(['sh', '-c', 'sleep 2 & sleep 1 & false & wait; echo done $?']);
    await started.clock.advance(1999);
    expect(started.stdout()).toBe('');
    await started.clock.advance(1);
    expect(await finish(started, 0)).toEqual({ exitCode: 0 });
    expect(started.stdout()).toBe('done 0\n');
  });

  test('wait PID gives that job\'s status; an unknown pid is 127', async () => {
    expect((await sh('false & wait $!; echo $?; sh -c "exit 5" & wait $!; echo $?; wait 99; echo $?')).stdout).toBe('1\n5\n127\n');
  });

  test('a job\'s output interleaves with the shell\'s as time goes', async () => {
    const ok = await sh('sleep 1 && echo late & echo early; wait', { maxMs: 2000 });
    expect(ok.stdout).toBe('early\nlate\n');
  });

  test('a job reads /dev/null, not the shell\'s stdin', async () => {
    const started = start(['sh', '-c', 'cat & wait; echo job done'], { openStdin: true });
    expect(await finish(started, 0)).toEqual({ exitCode: 0 });
    expect(started.stdout()).toBe('job done\n');
  });

  test('a job changing variables or the directory does not change the shell', async () => {
    expect((await sh('X=1; X=2 & cd /tmp & wait; echo $X; pwd')).stdout).toBe('1\n/\n');
  });
});

describe('sh: traps', () => {
  test('trap runs on a signal sent with kill, after the command, with $? kept', async () => {
    expect((await sh('trap "echo caught \\$?" TERM; false; kill $$; echo after $?')).stdout).toBe('caught 0\nafter 0\n');
    expect((await sh('trap "echo x" 15 SIGINT; kill -INT $$; kill -s TERM $$; echo after')).stdout).toBe('x\nx\nafter\n');
    expect((await sh("trap 'echo lower' term; kill -15 $$")).stdout).toBe('lower\n');
  });

  test('EXIT (and 0) traps run at the end; exit in them sets the status', async () => {
    expect(await sh('trap "echo e" EXIT; exit 4')).toMatchObject({ exitCode: 4, stdout: 'e\n' });
    expect(await sh('trap "echo e" 0; false')).toMatchObject({ exitCode: 1, stdout: 'e\n' });
    expect(await sh('trap "echo e; exit 7" EXIT; exit 4')).toMatchObject({ exitCode: 7, stdout: 'e\n' });
    expect(await sh('trap "exit" EXIT; exit 4')).toMatchObject({ exitCode: 4 });
  });

  test("trap '' ignores; trap - resets; trap lists", async () => {
    expect((await sh("trap '' TERM; kill $$; echo alive")).stdout).toBe('alive\n');
    expect((await sh('trap "echo x" TERM; trap - TERM; trap "echo y" INT; trap \'\' HUP; trap')).stdout).toBe("trap -- '' HUP\ntrap -- 'echo y' INT\n");
  });

  test('an ignored signal stays ignored in the commands the shell runs', async () => {
    const started = start(['sh', '-c', "trap '' TERM; sleep 10; echo end"]);
    await started.clock.advance(0);
    const sleeper = started.process.processTable().find((row) => row.command === 'sleep 10');
    expect(sleeper).toBeDefined();
    started.process.namespace.signal(sleeper?.pid ?? 0, 15);
    await started.clock.advance(5000);
    expect(started.process.processTable().map((row) => row.command)).toContain('sleep 10');
    expect(await finish(started, 6000)).toEqual({ exitCode: 0 });
    expect(started.stdout()).toBe('end\n');
  });

  test('an invalid condition: ash message, status 1, the script goes on', async () => {
    expect(await sh('trap x NOPE; echo $?')).toMatchObject({ stdout: '1\n', stderr: 'sh: trap: line 0: NOPE: invalid signal specification\n' });
  });

  test('kill errors', async () => {
    expect(await sh('kill -FOO 1; echo $?')).toMatchObject({ stdout: '1\n', stderr: "sh: bad signal name 'FOO'\n" });
    expect(await sh('kill 99999')).toMatchObject({ exitCode: 1, stderr: "sh: can't kill pid 99999: No such process\n" });
    expect(await sh('kill')).toMatchObject({ exitCode: 1, stderr: 'sh: you need to specify whom to kill\n' });
  });
});

describe('sh reading commands from stdin', () => {
  test('runs each line as it comes; an EOF ends it', async () => {
    const started = start(['sh'], { openStdin: true });
    started.process.stdin.write('echo one\necho "two');
    await started.clock.advance(0);
    expect(started.stdout()).toBe('one\n');
    started.process.stdin.write(' lines"\nexit 5\necho never\n');
    expect(await finish(started, 0)).toEqual({ exitCode: 5 });
    expect(started.stdout()).toBe('one\ntwo lines\n');
  });

  test('without stdin (no OpenStdin) it ends at once, like `docker run busybox`', async () => {
    expect(await run0(['sh'])).toMatchObject({ exitCode: 0, stdout: '' });
  });

  test('a syntax error ends a non-interactive shell: 2', async () => {
    const started = start(['sh'], { openStdin: true });
    started.process.stdin.write('echo a; ;\necho b\n');
    expect(await finish(started, 0)).toEqual({ exitCode: 2 });
    expect(started.stderr()).toBe('sh: syntax error: unexpected ";"\n');
  });

  test('with a tty it is interactive: prompt, typed input echoed, errors do not end it', async () => {
    const started = start(['sh'], { openStdin: true, tty: true, env: ['HOME=/root'] });
    await started.clock.advance(0);
    expect(started.stdout()).toBe('/ # ');
    started.process.stdin.write('cd /tmp; echo $((1))\r');
    await started.clock.advance(0);
    started.process.stdin.write('cd; echo hi\n');
    await started.clock.advance(0);
    expect(started.process.running).toBe(true);
    started.process.stdin.write('exit 3\n');
    expect(await finish(started, 0)).toEqual({ exitCode: 3 });
    expect(started.stdout()).toBe(
      '/ # cd /tmp; echo $((1))\r\n' +
        'sh: arithmetic expansion $((…)) is outside the fixture command contract (Shipshape reference)\r\n' +
        '/ # cd; echo hi\r\nhi\r\n~ # exit 3\r\n',
    );
  });

  test('sh FILE runs a script from the filesystem with its arguments', async () => {
    const fs = busyboxFilesystem();
    fs.writeFile('/tmp/s.sh', 'echo $0 $1\nnope\nexit 4\n');
    const started = start(['sh', '/tmp/s.sh', 'arg'], { fs });
    expect(await finish(started, 0)).toEqual({ exitCode: 4 });
    expect(started.stdout()).toBe('/tmp/s.sh arg\n');
    expect(started.stderr()).toBe('/tmp/s.sh: line 2: nope: not found\n');
    expect(await run0(['sh', '/nope.sh'])).toMatchObject({ exitCode: 2, stderr: "sh: can't open '/nope.sh': No such file or directory\n" });
  });
});
