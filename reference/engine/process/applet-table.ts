/**
 * The programs of the fixture image and how a command name finds one. A bare name that is an applet
 * runs it whatever the filesystem holds (busybox prefers its applets to a PATH search, and so the
 * reference does not depend on every `/bin/<applet>` link being there); a path must exist, and runs
 * the applet its file name is, `busybox APPLET`, or a shell script.
 */
import { BUSYBOX_APPLETS } from './busybox-applets.ts';
import { cat, find, ls, mkdir, rm, touch } from './file-commands.ts';
import { uname, uptime } from './host-commands.ts';
import { env, hostname, id, pwd, whoami } from './identity-commands.ts';
import { nslookup, ping } from './network-commands.ts';
import { baseName, resolvePath } from './paths.ts';
import { envValue, type Applet, type CommandLookup, type CommandLookupContext, type CommandResolution } from './program.ts';
import { sh } from './shell-applet.ts';
import { printf } from './printf-format.ts';
import { echo, falseCommand, seq, trueCommand } from './text-commands.ts';
import { cut, grep, head, sort, tail, wc } from './text-filters.ts';
import { sleep, top } from './time-commands.ts';

const APPLETS: ReadonlyMap<string, Applet> = new Map<string, Applet>([
  ['cat', cat],
  ['cut', cut],
  ['echo', echo],
  ['env', env],
  ['false', falseCommand],
  ['find', find],
  ['grep', grep],
  ['head', head],
  ['hostname', hostname],
  ['id', id],
  ['ls', ls],
  ['mkdir', mkdir],
  ['nslookup', nslookup],
  ['ping', ping],
  ['printf', printf],
  ['pwd', pwd],
  ['rm', rm],
  ['seq', seq],
  ['sh', sh],
  ['ash', sh],
  ['sleep', sleep],
  ['sort', sort],
  ['tail', tail],
  ['top', top],
  ['touch', touch],
  ['true', trueCommand],
  ['uname', uname],
  ['uptime', uptime],
  ['wc', wc],
  ['whoami', whoami],
]);

/** The names the reference runs. */
export const SIMULATED_APPLETS: ReadonlySet<string> = new Set(APPLETS.keys());

/** The PATH the shell searches for scripts when the environment has none. */
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function outsideContract(name: string): Applet {
  return async (context) => {
    context.io.stderr.write(`${name}: applet outside the fixture command contract (Shipshape reference)\n`);
    return 127;
  };
}

const busyboxBanner: Applet = async (context) => {
  context.io.stdout.write('BusyBox v1.35.0 (Shipshape reference) multi-call binary.\n');
  return 0;
};

/** An applet by name: simulated, or one busybox has and the reference does not. */
function appletNamed(name: string): Applet | undefined {
  return APPLETS.get(name) ?? (BUSYBOX_APPLETS.has(name) ? outsideContract(name) : undefined);
}

export const appletCommands: CommandLookup = {
  resolve(argv: readonly string[], where: CommandLookupContext): CommandResolution {
    const name = argv[0];
    if (name === undefined || name === '') return { kind: 'not-found' };
    if (!name.includes('/')) {
      if (name === 'busybox') return busyboxMultiCall(argv);
      const applet = appletNamed(name);
      if (applet) return { kind: 'program', applet, argv: [...argv], commandLine: [...argv] };
      const found = searchPath(name, where);
      return found === undefined ? { kind: 'not-found' } : resolvePathCommand(found, argv, where);
    }
    return resolvePathCommand(resolvePath(where.cwd, name), argv, where);
  },
};

/** `busybox APPLET ARGS`: the applet runs with `APPLET ARGS`; the process table keeps the whole line. */
function busyboxMultiCall(argv: readonly string[]): CommandResolution {
  const name = argv[1];
  if (name === undefined) return { kind: 'program', applet: busyboxBanner, argv: [...argv], commandLine: [...argv] };
  return { kind: 'program', applet: appletNamed(name) ?? outsideContract(name), argv: argv.slice(1), commandLine: [...argv] };
}

function searchPath(name: string, where: CommandLookupContext): string | undefined {
  for (const directory of (envValue(where.env, 'PATH') ?? DEFAULT_PATH).split(':')) {
    const candidate = resolvePath(where.cwd, `${directory || '.'}/${name}`);
    if (where.fs.stat(candidate)?.kind === 'file') return candidate;
  }
  return undefined;
}

function resolvePathCommand(path: string, argv: readonly string[], where: CommandLookupContext): CommandResolution {
  const stat = where.fs.stat(path);
  if (stat === undefined) return { kind: 'not-found' };
  if (stat.kind !== 'file' || (stat.mode & 0o111) === 0) return { kind: 'not-executable' };
  const file = baseName(path);
  if (file === 'busybox') return busyboxMultiCall(argv);
  const applet = appletNamed(file);
  if (applet) return { kind: 'program', applet, argv: [...argv], commandLine: [...argv] };
  // Anything else executable is taken for a shell script: with a `#!` line naming its interpreter,
  // or without one, as execvp falls back to /bin/sh for a file the kernel cannot run.
  const firstLine = where.fs.readFile(path).subarray(0, 256).toString('utf8').split('\n')[0] ?? '';
  const interpreter = firstLine.startsWith('#!') ? firstLine.slice(2).trim().split(/\s+/) : ['/bin/sh'];
  const shell = interpreter[0] ?? '/bin/sh';
  if (!['sh', 'ash', 'busybox'].includes(baseName(shell)) && !(baseName(shell) === 'env' && ['sh', 'ash'].includes(interpreter[1] ?? ''))) {
    return { kind: 'program', applet: outsideContract(baseName(shell)), argv: [...argv], commandLine: [...argv] };
  }
  const commandLine = [...interpreter, path, ...argv.slice(1)];
  return { kind: 'program', applet: sh, argv: ['sh', path, ...argv.slice(1)], commandLine };
}
