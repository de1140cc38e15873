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

/**
 * `id [-u|-g|-G] [-n] [-r] [USER]`. The groups are the primary one, those /etc/group lists the user
 * in, and for the process's own user those the container was given (HostConfig.GroupAdd), as runc
 * sets them at start: the kernel keeps a process's list sorted, getgrouplist (for
 * USER) puts the primary group first; -G prints the primary group first either way. A name that
 * /etc/passwd or /etc/group does not know prints as a number (with -n: an error, status 1).
 */
export const id: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 'ugGnr' }, ID_USAGE);
  if (typeof options === 'number') return options;
  const { flags } = options;
  const only = ['u', 'g', 'G'].filter((letter) => flags.has(letter));
  if (options.operands.length > 1 || only.length > 1 || (only.length === 0 && (flags.has('n') || flags.has('r')))) return usageError(context, ID_USAGE);
  let uid = context.user.uid;
  let gid = context.user.gid;
  const userName = options.operands[0];
  const users = passwdEntries(context.fs);
  if (userName !== undefined) {
    const entry = users.find((candidate) => candidate.name === userName) ?? (/^\d+$/.test(userName) ? users.find((candidate) => candidate.uid === Number(userName)) : undefined);
    if (entry === undefined) {
      complain(context, `id: unknown user ${userName}`);
      return 1;
    }
    ({ uid, gid } = entry);
  }
  const groups = groupEntries(context.fs);
  const userLabel = users.find((entry) => entry.uid === uid)?.name;
  const groupName = (number: number) => groups.find((entry) => entry.gid === number)?.name;
  const members = userLabel === undefined ? [] : groups.filter((entry) => entry.members.includes(userLabel)).map((entry) => entry.gid);
  const supplementary = userName === undefined ? [...new Set([gid, ...members, ...context.user.extraGroups])].sort((a, b) => a - b) : [...new Set([gid, ...members])];
  if (only.length === 0) {
    const label = (number: number, name: string | undefined) => (name === undefined ? `${number}` : `${number}(${name})`);
    context.io.stdout.write(`uid=${label(uid, userLabel)} gid=${label(gid, groupName(gid))} groups=${supplementary.map((number) => label(number, groupName(number))).join(',')}\n`);
    return 0;
  }
  const shown: Array<[number, string | undefined]> = flags.has('u')
    ? [[uid, userLabel]]
    : flags.has('g')
      ? [[gid, groupName(gid)]]
      : [gid, ...supplementary.filter((number) => number !== gid)].map((number) => [number, groupName(number)]);
  const names = flags.has('n');
  context.io.stdout.write(`${shown.map(([number, name]) => (names && name !== undefined ? name : String(number))).join(' ')}\n`);
  const unknown = names ? shown.find(([, name]) => name === undefined) : undefined;
  if (unknown === undefined) return 0;
  complain(context, `id: unknown ID ${unknown[0]}`);
  return 1;
};

/** `whoami`: the name of the effective uid; `whoami: unknown uid N` (status 1) when /etc/passwd does not know it. */
export const whoami: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: '' }, { synopsis: 'whoami', summary: 'Print the user name associated with the current effective user id' });
  if (typeof options === 'number') return options;
  const name = passwdEntries(context.fs).find((entry) => entry.uid === context.user.uid)?.name;
  if (name === undefined) {
    complain(context, `whoami: unknown uid ${context.user.uid}`);
    return 1;
  }
  context.io.stdout.write(`${name}\n`);
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

function groupEntries(fs: ContainerFilesystem): Array<{ name: string; gid: number; members: string[] }> {
  return databaseLines(fs, '/etc/group').flatMap((fields) => {
    const [name, , gid, members] = fields;
    if (name === undefined || !/^\d+$/.test(gid ?? '')) return [];
    return [{ name, gid: Number(gid), members: (members ?? '').split(',').filter(Boolean) }];
  });
}

function databaseLines(fs: ContainerFilesystem, path: string): string[][] {
  if (fs.stat(path)?.kind !== 'file') return [];
  return fs.readFile(path).toString('utf8').split('\n').filter(Boolean).map((line) => line.split(':'));
}
