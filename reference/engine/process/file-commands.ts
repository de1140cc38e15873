/**
 * `cat`, `ls`, `find`, `mkdir`, `touch`, `rm` on the container filesystem, with busybox 1.35's messages and
 * exit codes. Relative paths are taken from the working directory; messages show them as given.
 */
import { complain, errnoText, parseOptions, usageError, type AppletUsage } from './applet-support.ts';
import type { EntryStat } from '../filesystem/container-filesystem.ts';
import { passwdEntries } from './identity-commands.ts';
import { resolvePath } from './paths.ts';
import type { Applet, ProgramContext } from './program.ts';
import { yieldToEventLoop } from './scheduler.ts';

const CAT_USAGE: AppletUsage = { synopsis: 'cat [-nbvteA] [FILE]...', summary: 'Print FILEs to stdout' };

/** `cat [FILE]...`: `-` or no file reads stdin until its end, passing each chunk on as it comes. */
export const cat: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 'u', unsupported: 'nbvteA' }, CAT_USAGE);
  if (typeof options === 'number') return options;
  const operands = options.operands.length > 0 ? options.operands : ['-'];
  let status = 0;
  for (const operand of operands) {
    if (operand === '-') {
      await copyStdin(context);
      continue;
    }
    const path = resolvePath(context.cwd, operand);
    const stat = context.fs.stat(path);
    if (stat === undefined) {
      complain(context, `cat: can't open '${operand}': No such file or directory`);
      status = 1;
    } else if (stat.kind === 'directory') {
      complain(context, 'cat: read error: Is a directory');
      status = 1;
    } else {
      try {
        context.io.stdout.write(context.fs.readFile(path));
      } catch (error) {
        complain(context, `cat: can't open '${operand}': ${errnoText(error)}`);
        status = 1;
      }
    }
  }
  return status;
};

async function copyStdin(context: ProgramContext): Promise<void> {
  for (;;) {
    const pending = context.io.stdin.read();
    const chunk = await context.task.waitFor(pending.result, pending.cancel);
    if (chunk === null) return;
    context.io.stdout.write(chunk);
    await yieldToEventLoop(); // a fast writer cannot starve the rest of the daemon
  }
}

const LS_USAGE: AppletUsage = { synopsis: 'ls [-1AaCxdLHRFplinshrSXvctu] [-w WIDTH] [FILE]...', summary: 'List directory contents' };

/**
 * `ls [-1aAdlp] [PATH]...`, one name per line: file operands first, then each directory's entries
 * (with a `DIR:` heading when there are several operands). Names sort bytewise, as in the C locale.
 * `-p` marks directories with `/`; `-l` is busybox's long format (`total` in 1K blocks of 4K ones,
 * the owner as root, which is all the filesystem records); `-d` lists a directory itself.
 */
export const ls: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: '1aAdlp', unsupported: 'CxLHRFinshrSXvctuw' }, LS_USAGE);
  if (typeof options === 'number') return options;
  const operands = options.operands.length > 0 ? options.operands : ['.'];
  const { flags } = options;
  let status = 0;
  const files: Array<{ operand: string; path: string }> = [];
  const directories: Array<{ operand: string; path: string }> = [];
  for (const operand of operands) {
    const path = resolvePath(context.cwd, operand);
    const stat = context.fs.stat(path);
    if (stat === undefined) {
      complain(context, `ls: ${operand}: No such file or directory`);
      status = 1;
    } else if (stat.kind === 'directory' && !flags.has('d')) directories.push({ operand, path });
    else files.push({ operand, path });
  }
  const entry = (name: string, path: string) => {
    const stat = context.fs.lstat(path);
    if (stat === undefined) return `${name}\n`;
    const marked = flags.has('p') && stat.kind === 'directory' ? `${name}/` : name;
    return flags.has('l') ? `${longLine(context, stat, path)} ${marked}${stat.kind === 'symlink' ? ` -> ${stat.linkTarget}` : ''}\n` : `${marked}\n`;
  };
  let output = files.sort((a, b) => bytewise(a.operand, b.operand)).map(({ operand, path }) => entry(operand, path)).join('');
  for (const { operand, path } of directories.sort((a, b) => bytewise(a.operand, b.operand))) {
    if (operands.length > 1) output += `${output ? '\n' : ''}${operand}:\n`;
    let names = context.fs.list(path);
    if (flags.has('a')) names = ['.', '..', ...names];
    else if (!flags.has('A')) names = names.filter((name) => !name.startsWith('.'));
    const sorted = names.sort(bytewise);
    const paths = sorted.map((name) => (name === '.' ? path : name === '..' ? resolvePath(path, '..') : `${path === '/' ? '' : path}/${name}`));
    if (flags.has('l')) output += `total ${paths.reduce((sum, entryPath) => sum + blocksOf(context.fs.lstat(entryPath)), 0)}\n`;
    output += sorted.map((name, index) => entry(name, paths[index] as string)).join('');
  }
  context.io.stdout.write(output);
  return status;
};

/** 1K blocks of a filesystem with 4K ones: a directory takes one, a file what its size needs. */
function blocksOf(stat: EntryStat | undefined): number {
  if (stat === undefined || stat.kind === 'symlink') return 0;
  return stat.kind === 'directory' ? 4 : Math.ceil(stat.size / 4096) * 4;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const SIX_MONTHS_MS = 182.5 * 24 * 3600 * 1000;

/** `-rw-r--r--    1 root     root             0 Nov 26 01:33`: busybox's columns, before the name. */
function longLine(context: ProgramContext, stat: EntryStat, path: string): string {
  const type = stat.kind === 'directory' ? 'd' : stat.kind === 'symlink' ? 'l' : '-';
  const permissions = stat.kind === 'symlink' ? 'rwxrwxrwx' : [6, 3, 0].map((shift) => {
    const bits = (stat.mode >> shift) & 7;
    return `${bits & 4 ? 'r' : '-'}${bits & 2 ? 'w' : '-'}${bits & 1 ? 'x' : '-'}`;
  }).join('');
  const links = stat.kind === 'directory' ? 2 + context.fs.list(path).filter((name) => context.fs.lstat(`${path === '/' ? '' : path}/${name}`)?.kind === 'directory').length : 1;
  const owner = passwdEntries(context.fs).find((entry) => entry.uid === 0)?.name ?? '0';
  const size = stat.kind === 'directory' ? 4096 : stat.size;
  const when = stat.mtime;
  const recent = Math.abs(Date.now() - when.getTime()) < SIX_MONTHS_MS;
  const day = String(when.getUTCDate()).padStart(2);
  const clock = recent ? `${String(when.getUTCHours()).padStart(2, '0')}:${String(when.getUTCMinutes()).padStart(2, '0')}` : ` ${when.getUTCFullYear()}`;
  return `${type}${permissions} ${String(links).padStart(4)} ${owner.padEnd(8)} ${owner.padEnd(8)} ${String(size).padStart(9)} ${MONTHS[when.getUTCMonth()]} ${day} ${clock}`;
}

type FindTest = (path: string, name: string, stat: EntryStat, depth: number) => boolean;

/**
 * `find [PATH]... [-maxdepth N] [-mindepth N] [-name|-iname|-path PATTERN] [-type f|d|l] [!|-not]
 * [-print]`: each path and what is under it, depth first, the tests anded. busybox lists a
 * directory in the order the filesystem returns its entries; the reference's order is bytewise.
 */
export const find: Applet = async (context) => {
  const args = context.argv.slice(1);
  const roots: string[] = [];
  while (args.length > 0 && !(args[0] as string).startsWith('-') && args[0] !== '!') roots.push(args.shift() as string);
  let maxDepth = Infinity;
  let minDepth = 0;
  const tests: FindTest[] = [];
  let negate = false;
  while (args.length > 0) {
    const word = args.shift() as string;
    const value = () => {
      const next = args.shift();
      if (next === undefined) throw new FindUsage(`find: '${word}' requires an argument`);
      return next;
    };
    let test: FindTest | undefined;
    try {
      switch (word) {
        case '!':
        case '-not':
          negate = !negate;
          continue;
        case '-print':
          continue;
        case '-maxdepth':
          maxDepth = Number(value());
          continue;
        case '-mindepth':
          minDepth = Number(value());
          continue;
        case '-name':
        case '-iname': {
          const matcher = globRegExp(value(), word === '-iname');
          test = (_path, name) => matcher.test(name);
          break;
        }
        case '-path': {
          const matcher = globRegExp(value(), false);
          test = (path) => matcher.test(path);
          break;
        }
        case '-type': {
          const kind = { f: 'file', d: 'directory', l: 'symlink' }[value()];
          if (kind === undefined) throw new FindUsage(`find: -type outside f, d, l is outside the fixture command contract (Shipshape reference)`);
          test = (_path, _name, stat) => stat.kind === kind;
          break;
        }
        default:
          throw new FindUsage(`find: ${word} is outside the fixture command contract (Shipshape reference)`);
      }
    } catch (error) {
      if (!(error instanceof FindUsage)) throw error;
      complain(context, error.message);
      return 1;
    }
    const chosen = test;
    tests.push(negate ? (...at) => !chosen(...at) : chosen);
    negate = false;
  }
  let status = 0;
  let output = '';
  const visit = (shown: string, path: string, depth: number) => {
    const stat = context.fs.lstat(path);
    if (stat === undefined) return;
    const name = depth === 0 ? shown.replace(/\/+$/, '').split('/').pop() || shown : (path.split('/').pop() as string);
    if (depth >= minDepth && tests.every((test) => test(shown, name, stat, depth))) output += `${shown}\n`;
    if (stat.kind !== 'directory' || depth >= maxDepth) return;
    for (const child of context.fs.list(path).sort(bytewise)) visit(`${shown.endsWith('/') ? shown : `${shown}/`}${child}`, `${path === '/' ? '' : path}/${child}`, depth + 1);
  };
  for (const root of roots.length > 0 ? roots : ['.']) {
    const path = resolvePath(context.cwd, root);
    if (context.fs.lstat(path) === undefined) {
      complain(context, `find: ${root}: No such file or directory`);
      status = 1;
      continue;
    }
    visit(root, path, 0);
    await yieldToEventLoop();
  }
  context.io.stdout.write(output);
  return status;
};

class FindUsage extends Error {}

/** fnmatch as find calls it: `*` and `?` match `/` and a leading `.` too; `[…]` sets. */
function globRegExp(pattern: string, ignoreCase: boolean): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else if (char === '[') {
      const close = pattern.indexOf(']', index + 2);
      if (close < 0) source += '\\[';
      else {
        const body = pattern.slice(index + 1, close);
        source += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        index = close;
      }
    } else if (char === '\\' && index + 1 < pattern.length) source += `\\${pattern[++index]}`;
    else source += char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, `s${ignoreCase ? 'i' : ''}`);
}

function bytewise(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

const MKDIR_USAGE: AppletUsage = { synopsis: 'mkdir [-m MODE] [-p] DIRECTORY...', summary: 'Create DIRECTORY' };

/** `mkdir [-p] PATH...` */
export const mkdir: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 'p', unsupported: 'm' }, MKDIR_USAGE);
  if (typeof options === 'number') return options;
  if (options.operands.length === 0) return usageError(context, MKDIR_USAGE);
  const parents = options.flags.has('p');
  let status = 0;
  for (const operand of options.operands) {
    const path = resolvePath(context.cwd, operand);
    if (parents && context.fs.stat(path)?.kind === 'directory') continue;
    try {
      context.fs.mkdir(path, { parents });
    } catch (error) {
      complain(context, `mkdir: can't create directory '${operand}': ${errnoText(error)}`);
      status = 1;
    }
  }
  return status;
};

const TOUCH_USAGE: AppletUsage = { synopsis: 'touch [-cham] [-d DATE] [-t DATE] [-r FILE] FILE...', summary: 'Update mtime of FILEs' };

/**
 * `touch PATH...`: creates a missing file. An existing file gets an empty append, the one way the
 * filesystem port offers to change it (its mtime, and the layer's change list); a directory is left
 * as it is.
 */
export const touch: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: '', unsupported: 'chamdtr' }, TOUCH_USAGE);
  if (typeof options === 'number') return options;
  if (options.operands.length === 0) return usageError(context, TOUCH_USAGE);
  let status = 0;
  for (const operand of options.operands) {
    const path = resolvePath(context.cwd, operand);
    const stat = context.fs.stat(path);
    if (stat?.kind === 'directory') continue;
    try {
      context.fs.writeFile(path, '', stat === undefined ? {} : { append: true });
    } catch (error) {
      complain(context, `touch: ${operand}: ${errnoText(error)}`);
      status = 1;
    }
  }
  return status;
};

const RM_USAGE: AppletUsage = { synopsis: 'rm [-irf] FILE...', summary: 'Remove (unlink) FILEs' };

/** `rm [-rf] PATH...` */
export const rm: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 'rRf', unsupported: 'i' }, RM_USAGE);
  if (typeof options === 'number') return options;
  if (options.operands.length === 0) return usageError(context, RM_USAGE);
  const force = options.flags.has('f');
  const recursive = options.flags.has('r') || options.flags.has('R');
  let status = 0;
  for (const operand of options.operands) {
    const path = resolvePath(context.cwd, operand);
    const stat = context.fs.lstat(path);
    if (stat === undefined) {
      if (!force) {
        complain(context, `rm: can't remove '${operand}': No such file or directory`);
        status = 1;
      }
      continue;
    }
    if (stat.kind === 'directory' && !recursive) {
      complain(context, `rm: '${operand}' is a directory`);
      status = 1;
      continue;
    }
    try {
      context.fs.remove(path, { recursive, force });
    } catch (error) {
      complain(context, `rm: can't remove '${operand}': ${errnoText(error)}`);
      status = 1;
    }
  }
  return status;
};
