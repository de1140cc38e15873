/** `env`, `pwd`, `hostname`, `id`: what a process knows about itself. */
import { complain, parseOptions, usageError, type AppletUsage } from './applet-support.ts';
import type { ContainerFilesystem } from '../filesystem/container-filesystem.ts';
import { execProgram } from './program-launch.ts';
import type { Applet } from './program.ts';

const ENV_USAGE: AppletUsage = {
  synopsis: 'env [-i0] [-u NAME]... [-] [NAME=VALUE]... [PROG ARGS]',
  summary: 'Print current environment or run PROG after setting up environment',
};

/** `env [-i] [-u NAME] [NAME=VALUE]... [PROG ARGS]`: prints the environment, or runs PROG in it. */
export const env: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 'i0u', withValue: 'u', stopAtOperand: true }, ENV_USAGE);
  if (typeof options === 'number') return options;
  let operands = options.operands;
  let clear = options.flags.has('i');
  if (operands[0] === '-') {
    clear = true;
    operands = operands.slice(1);
  }
  const removed = new Set(options.values.get('u') ?? []);
  let entries = clear ? [] : context.env.filter((entry) => !removed.has(entry.slice(0, entry.indexOf('='))));
  while (operands[0]?.includes('=')) {
    const entry = operands[0];
    const name = entry.slice(0, entry.indexOf('='));
    entries = [...entries.filter((existing) => !existing.startsWith(`${name}=`)), entry];
    operands = operands.slice(1);
  }
  if (operands.length === 0) {
    const terminator = options.flags.has('0') ? '\0' : '\n';
    context.io.stdout.write(entries.map((entry) => entry + terminator).join(''));
    return 0;
  }
  const program = context.commands.resolve(operands, { cwd: context.cwd, env: entries, fs: context.fs });
  if (program.kind !== 'program') {
    complain(context, `env: can't execute '${operands[0]}': ${program.kind === 'not-found' ? 'No such file or directory' : 'Permission denied'}`);
    return program.kind === 'not-found' ? 127 : 126;
  }
  return execProgram(context, program, { env: entries, cwd: context.cwd, io: context.io });
};

/** `pwd`: the working directory. */
export const pwd: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 'LP' }, { synopsis: 'pwd', summary: 'Print the full name of the current working directory' });
  if (typeof options === 'number') return options;
  context.io.stdout.write(`${context.cwd}\n`);
  return 0;
};

const HOSTNAME_USAGE: AppletUsage = { synopsis: 'hostname [-sidf] [HOSTNAME | -F FILE]', summary: 'Show or set hostname or DNS domain name' };

/** `hostname [-s]`; setting it needs CAP_SYS_ADMIN, which a container does not have. */
export const hostname: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 's', unsupported: 'idfF' }, HOSTNAME_USAGE);
  if (typeof options === 'number') return options;
  if (options.operands.length > 0) {
    complain(context, 'hostname: sethostname: Operation not permitted');
    return 1;
  }
  const name = options.flags.has('s') ? (context.hostname.split('.')[0] ?? '') : context.hostname;
  context.io.stdout.write(`${name}\n`);
  return 0;
};

const ID_USAGE: AppletUsage = { synopsis: 'id [-ugGnr] [USER]', summary: 'Print information about USER or the current user' };

/** `id [-u|-g] [-n] [USER]`; plain `id` leaves out the supplementary groups. */
export const id: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 'ugnr', unsupported: 'G' }, ID_USAGE);
  if (typeof options === 'number') return options;
  if (options.operands.length > 1) return usageError(context, ID_USAGE);
  let uid = context.user.uid;
  let gid = context.user.gid;
  const userName = options.operands[0];
  if (userName !== undefined) {
    const entry = passwdEntries(context.fs).find((candidate) => candidate.name === userName);
    if (entry === undefined) {
      complain(context, `id: unknown user ${userName}`);
      return 1;
    }
    ({ uid, gid } = entry);
  }
  const names = options.flags.has('n');
  const userLabel = passwdEntries(context.fs).find((entry) => entry.uid === uid)?.name;
  const groupLabel = groupEntries(context.fs).find((entry) => entry.gid === gid)?.name;
  if (options.flags.has('u')) context.io.stdout.write(`${names ? (userLabel ?? uid) : uid}\n`);
  else if (options.flags.has('g')) context.io.stdout.write(`${names ? (groupLabel ?? gid) : gid}\n`);
  else {
    const label = (number: number, name: string | undefined) => (name === undefined ? `${number}` : `${number}(${name})`);
    context.io.stdout.write(`uid=${label(uid, userLabel)} gid=${label(gid, groupLabel)}\n`);
  }
  return 0;
};

interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
}

/** The container's /etc/passwd, empty when it has none. */
export function passwdEntries(fs: ContainerFilesystem): PasswdEntry[] {
  return databaseLines(fs, '/etc/passwd').flatMap((fields) => {
    const [name, , uid, gid] = fields;
    if (name === undefined || !/^\d+$/.test(uid ?? '') || !/^\d+$/.test(gid ?? '')) return [];
    return [{ name, uid: Number(uid), gid: Number(gid) }];
  });
}

function groupEntries(fs: ContainerFilesystem): Array<{ name: string; gid: number }> {
  return databaseLines(fs, '/etc/group').flatMap((fields) => {
    const [name, , gid] = fields;
    if (name === undefined || !/^\d+$/.test(gid ?? '')) return [];
    return [{ name, gid: Number(gid) }];
  });
}

function databaseLines(fs: ContainerFilesystem, path: string): string[][] {
  if (fs.stat(path)?.kind !== 'file') return [];
  return fs.readFile(path).toString('utf8').split('\n').filter(Boolean).map((line) => line.split(':'));
}
