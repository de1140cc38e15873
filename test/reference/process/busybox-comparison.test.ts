/**
 * The simulation next to the real thing: the same scripts through /bin/busybox and through the
 * reference, same stdout, stderr and exit code. Skipped where the machine has no busybox.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { chains, chainScript, quotedEcho, words } from './shell-scripts.ts';
import { busyboxFilesystem, finish, sh, start } from './run-process.ts';

const BUSYBOX = process.env.SHIPSHAPE_BUSYBOX ?? '/bin/busybox';
const seed = Number(process.env.SHIPSHAPE_SEED ?? 424242);

/** a scratch directory standing in for the container's /tmp on the host */
const scratch = existsSync(BUSYBOX) ? mkdtempSync(join(tmpdir(), 'shipshape-busybox-')) : '';
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function onBusybox(script: string, input?: string) {
  // a fresh scratch directory for each script, as the reference gets a fresh filesystem
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch);
  const result = spawnSync(BUSYBOX, input === undefined ? ['sh', '-c', script] : ['sh'], {
    input,
    cwd: scratch,
    env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root' },
    encoding: 'utf8',
    timeout: 10_000,
  });
  // the scratch directory is /scratch on the reference side
  const local = (text: string) => text.replaceAll(scratch, '/scratch');
  return { exitCode: result.status, stdout: local(result.stdout), stderr: local(result.stderr) };
}

async function onReference(script: string, input?: string) {
  const fs = busyboxFilesystem();
  fs.mkdir('/scratch');
  const options = { fs, workingDir: '/scratch', env: ['PATH=/usr/sbin:/usr/bin:/sbin:/bin', 'HOME=/root'] };
  if (input === undefined) {
    const result = await sh(script, { ...options, maxMs: 10_000 });
    return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
  }
  const started = start(['sh'], { ...options, openStdin: true });
  started.process.stdin.write(input);
  started.process.stdin.end();
  const status = await finish(started, 10_000);
  return { exitCode: status.exitCode, stdout: started.stdout(), stderr: started.stderr() };
}

/** Commands fed to `sh` on its standard input. */
const STDIN_SCRIPTS = [
  'echo a\nnope\necho "b\n',
  'echo a; ;\necho b\n',
  'echo one\ncd nope\necho "two\nlines"\nexit 5\necho never\n',
  'echo ${X?unset here}\necho after\n',
];

// Scripts that only touch the working directory (a scratch directory on both sides), whose output
// does not depend on the host. They run as the host's user on the host: nothing here may change the
// machine (no hostname, no kill of other pids).
const SCRIPTS = [
  'echo hi; exit 3',
  'echo -n a; echo -e "b\\tc"; echo -- -n',
  'false || echo y && echo z; ! true; echo $?',
  'exit 300',
  'exit abc',
  'nope; echo $?',
  'cat nope',
  'ls nope; echo $?',
  'echo "a  b" \'c  d\' e\\ f "$UNSET" ${UNSET:-dflt} ${#HOME}',
  'X="a  b"; echo $X "$X"; Y=1 sh -c \'echo $Y$X\'; export X; sh -c \'echo "$X"\'',
  'mkdir -p d/e; touch d/b d/a d/.h; ls d; ls -a d; ls -A d; ls d/e nope d 2>&1; echo $?',
  'mkdir d; mkdir d; echo $?; rm d; echo $?; rm -r d; rm nope; rm -f nope; echo $?',
  'echo one > f; echo two >> f; cat f; echo hi > nodir/x; echo $?; echo x > .',
  'echo out; echo err >&2; cat nope 2>&1',
  'seq 3; seq 2 4; seq 5 -2 1; seq 1 0.5 2; seq -s, 3; seq -w 8 10',
  'sleep 0.01; sleep abc; echo $?',
  'trap "echo x" TERM; kill $$; echo after $?',
  'trap "echo e; exit 7" EXIT; exit 4',
  'trap x NOPE; echo $?',
  'false & wait $!; echo $?; wait 99; echo $?; sleep 0.01 & wait; echo $?',
  'cd nope; echo $?; cd d 2>/dev/null; pwd >/dev/null; echo "${X:=set}" $X',
  'echo a &&',
  'echo "abc',
  'echo ${',
  'kill -FOO 1; kill; echo $?',
  'id -u; echo $0 $#',
  'touch a.txt b.txt .h.txt c.log; echo *.txt; echo ?.log [ab].txt; echo *.none "*"; echo .*.txt',
  'X=v; echo ${X:+alt} ${UNSET:+alt}end ${E-unset} "${UNSET:-a  b}" ${UNSET:-a  b}',
  'echo "back\\slash \\$ \\" \\x" \'single \\ $X\' a\\ b',
  'cat nope 2>&1 >out; echo ---; cat out; cat nope >out 2>&1; cat out',
  'trap "echo x" TERM; trap \'\' HUP; trap; trap - TERM; trap',
  'export B=2 A="it\'s"; export -p',
  'set -- a "b c"; echo $#; echo "$@"; echo "$*"; echo $2',
  'cat < nope; echo $?; echo in > f; cat < f',
  'echo ~ ~/x a~ "~"',
  'env -i A=1 env; env -u HOME sh -c \'echo [$HOME]\'',
  'echo -e "\\x41\\0101\\101\\c" never',
];

describe.skipIf(!existsSync(BUSYBOX))(`next to ${BUSYBOX}`, () => {
  test.each(SCRIPTS)('%s', async (script) => {
    const real = onBusybox(script);
    expect(await onReference(script)).toEqual(real);
  });

  test.each(STDIN_SCRIPTS)('sh < %j', async (input) => {
    expect(await onReference('', input)).toEqual(onBusybox('', input));
  });

  test('random ;/&&/|| chains exit alike', async () => {
    await fc.assert(
      fc.asyncProperty(chains, async (lists) => {
        const script = chainScript(lists);
        expect((await onReference(script)).exitCode).toBe(onBusybox(script).exitCode);
      }),
      { seed, numRuns: 40 },
    );
  });

  test('random quoted words echo alike', async () => {
    await fc.assert(
      fc.asyncProperty(words, fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), async (list, style) => {
        const script = quotedEcho(list, style);
        expect((await onReference(script)).stdout).toBe(onBusybox(script).stdout);
      }),
      { seed, numRuns: 40 },
    );
  });
});
