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
  'set --; for a in "$@"; do echo "[$a]"; done; echo hi "$@" there; echo "x$@y"',
  'cat < nope; echo $?; echo in > f; cat < f',
  'echo ~ ~/x a~ "~"',
  'env -i A=1 env; env -u HOME sh -c \'echo [$HOME]\'',
  'echo -e "\\x41\\0101\\101\\c" never',
];

/** What clients' test suites run beyond the fixture command contract: filters, pipes, substitution, loops. */
const CLIENT_SCRIPTS = [
  'printf "b\\na\\nB\\n10\\n9\\n" > s; sort s; sort -r s; sort -n s; sort -u s; sort -rn s',
  'printf "x 3\\ny 1\\nx 2\\n" | sort -k2; printf "a:3\\nb:1\\n" | sort -t: -k2 -n',
  'printf "b\\na\\nb\\n" | sort -u; printf "" | sort; echo $?',
  'printf "a\\nb\\nab\\n" > f; grep a f; echo $?; grep -c b f; grep -v a f; grep -n b f; grep -i A f; grep zz f; echo $?',
  'printf "a\\nb\\n" > f; grep a f f; grep -l a f; grep -q a f; echo $?; grep q nofile; echo $?; grep -s q nofile; echo $?',
  'printf "ab\\nabc\\nx.y\\n" > f; grep -E "^(ab|x)" f; grep "ab\\(c\\)*$" f; grep -F . f; grep -x ab f; grep -w ab f; grep -o "b." f; grep -e x -e c f',
  'printf "a b c\\nd\\n\\n" > f; wc f; wc -l f; wc -w < f; wc -c f f; wc -lw f; printf x | wc -c',
  'seq 12 > f; head -3 f; head -n 2 f; head -n -10 f; tail -2 f; tail -n +11 f; head -c 5 f; tail -c 3 f; head -1 f f; tail -n 1 nope; echo $?',
  'printf "a:b:c\\nd:e\\nnodelim\\n" > f; cut -d: -f2 f; cut -d: -f1,3 f; cut -d: -f2- f; cut -s -d: -f2 f; cut -c2-3 f; cut -b1 f',
  'printf "%s-%d|%5s|%-3s|%03d|%x|%X|%o|%c|%%|%.2f|%e|%i\\n" a 42 bb c 7 255 255 8 xyz 3.14159 1000 9',
  'printf "%s\\n" a b c; printf "%d %s\\n" 1 a 2; printf "%5d|%-5d|%+d|%.3s|\\n" 42 42 42 abcdef; printf "\\101\\n"; printf "%b\\n" "t\\tb"',
  'printf "%d\\n" abc; echo $?; printf "%s %s\\n" a; printf; echo $?; printf "%d\\n" 0x10 "\'A" -3; printf "%5.1f|%g|%g\\n" 2.25 0.0001 100000',
  'echo a b | cat; echo x | grep y; echo $?; ! echo x | grep y; echo $?; false | true; echo $?; true | false; echo $?',
  'seq 5 | grep -v 3 | sort -r | head -2 | wc -l',
  'X=$(echo hi); echo "[$X]"; echo "$(seq 3)"; echo $(seq 3); echo `echo a` "`echo b c`"; Y=$(false); echo $?',
  'echo "$(echo "a)" | cat)"; echo $(echo $(echo nested)); n=$(seq 3 | wc -l); echo "n=$n"',
  'seq 3 | while read n; do echo "n=$n"; done; echo $?; printf "a b c\\nd e\\n" | while read x y; do echo "$y|$x"; done',
  'printf "one two\\n" > f; while read -r a b; do echo "$b $a"; done < f; read x < f; echo "[$x]"; printf "a\\\\ b\\n" | while read v; do echo "[$v]"; done',
  'printf "1:2:3\\n" | while IFS=: read a b c; do echo "$c$b$a"; done; printf "  lead  trail  \\n" | while read l; do echo "[$l]"; done',
  'for a in 1 2 3; do echo $a; done | sort -r; for f in x y; do echo -n $f; done; echo; set -- p q; for a; do echo $a; done',
  'i=0; while [ $i -lt 0 ]; do :; done 2>/dev/null; if true; then echo t; else echo e; fi; if false; then echo a; elif true; then echo b; fi; if false; then echo c; fi; echo $?',
  'until true; do echo never; done; echo done; while false; do :; done; echo $?',
  'mkdir -p d/e; touch d/b a; find . | sort; find d -type f; find . -name "b*" | sort; find . -maxdepth 1 -type d | sort; find nope; echo $?',
  'mkdir -p d/e; touch d/b; ls -p; ls -p d; ls -d d; find . -type d | sort',
  'echo "a b" > f; cat f | while read x; do echo "got $x"; done | grep -c got; echo $?',
  'printf "a b\\n" | { read x y; echo "[$y][$x]"; }; { echo in; echo err >&2; } 2>&1 > f; cat f; { X=1; }; echo $X; echo "}" {',
  'while true; do echo y; done | head -2; echo $?; seq 100000 | head -1; seq 3 | head -n 5',
  'echo d:e | cut -d: -f1,4; echo d:e | cut -d: -f3; echo d:e | cut -d: -f2,3; echo a:b:c | cut -d: -f3,1; tail nope; echo $?; head nope; echo $?',
];

describe.skipIf(!existsSync(BUSYBOX))(`next to ${BUSYBOX}`, () => {
  test.each(SCRIPTS)('%s', async (script) => {
    const real = onBusybox(script);
    expect(await onReference(script)).toEqual(real);
  });

  test.each(CLIENT_SCRIPTS)('beyond the contract: %s', async (script) => {
    const real = onBusybox(script);
    expect(await onReference(script)).toEqual(real);
  });

  test('random pipelines of filters over random lines print alike', async () => {
    const line = fc.array(fc.constantFrom('a', 'b', 'B', '1', '10', 'x y', ':', ' '), { minLength: 0, maxLength: 4 }).map((pieces) => pieces.join(''));
    const filter = fc.constantFrom(
      'sort', 'sort -r', 'sort -n', 'sort -u', 'sort -rn', 'head -n 2', 'head -n -1', 'tail -n 2', 'tail -n +2', 'grep a', 'grep -v b',
      'grep -c 1', 'grep -n x', 'grep -i b', 'wc -l', 'wc', 'cut -c1-2', 'cut -d: -f1', 'cut -d" " -f2', 'cat', 'while read a b; do echo "$b|$a"; done',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 0, maxLength: 6 }), fc.array(filter, { minLength: 1, maxLength: 3 }), async (lines, filters) => {
        const script = `printf '%s\\n' ${lines.map((text) => `'${text}'`).join(' ')} > in; X=$(cat in | ${filters.join(' | ')}); echo "$X"; cat in | ${filters.join(' | ')}; echo $?`;
        expect(await onReference(script), script).toEqual(onBusybox(script));
      }),
      { seed, numRuns: 40 },
    );
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
