/**
 * `cat`, `ls`, `mkdir`, `touch`, `rm` on the container filesystem, with busybox 1.35's messages and
 * exit codes. Relative paths are taken from the working directory; messages show them as given.
 */
import { complain, errnoText, parseOptions, usageError, type AppletUsage } from './applet-support.ts';
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
 * `ls [-1aA] [PATH]...`, one name per line: file operands first, then each directory's entries
 * (with a `DIR:` heading when there are several operands). Names sort bytewise, as in the C locale.
 */
export const ls: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: '1aA', unsupported: 'CxdLHRFplinshrSXvctuw' }, LS_USAGE);
  if (typeof options === 'number') return options;
  const operands = options.operands.length > 0 ? options.operands : ['.'];
  const all = options.flags.has('a');
  const almostAll = options.flags.has('A');
  let status = 0;
  const files: string[] = [];
  const directories: Array<{ operand: string; path: string }> = [];
  for (const operand of operands) {
    const path = resolvePath(context.cwd, operand);
    const stat = context.fs.stat(path);
    if (stat === undefined) {
      complain(context, `ls: ${operand}: No such file or directory`);
      status = 1;
    } else if (stat.kind === 'directory') directories.push({ operand, path });
    else files.push(operand);
  }
  let output = files.sort(bytewise).map((name) => `${name}\n`).join('');
  for (const { operand, path } of directories.sort((a, b) => bytewise(a.operand, b.operand))) {
    if (operands.length > 1) output += `${output ? '\n' : ''}${operand}:\n`;
    let names = context.fs.list(path);
    if (all) names = ['.', '..', ...names];
    else if (!almostAll) names = names.filter((name) => !name.startsWith('.'));
    output += names.sort(bytewise).map((name) => `${name}\n`).join('');
  }
  context.io.stdout.write(output);
  return status;
};

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
