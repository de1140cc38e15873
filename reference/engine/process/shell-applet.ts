/**
 * The `sh` applet: `sh -c SCRIPT [NAME [ARG...]]`, `sh FILE [ARG...]`, or `sh` reading commands from
 * stdin (interactive, with a prompt, when the streams are a terminal or with `-i`).
 */
import { appletName, complain } from './applet-support.ts';
import { resolvePath } from './paths.ts';
import type { Applet } from './program.ts';
import { Shell } from './shell.ts';

export const sh: Applet = async (context) => {
  const name = appletName(context);
  const args = context.argv.slice(1);
  let command = false;
  let fromStdin = false;
  let interactive = false;
  let index = 0;
  for (; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--') {
      index++;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    for (const letter of arg.slice(1)) {
      if (letter === 'c') command = true;
      else if (letter === 's') fromStdin = true;
      else if (letter === 'i') interactive = true;
      else if (letter !== 'l') {
        // -l (login shell) changes nothing here: the fixture image has no profile to read
        complain(context, `${name}: option -${letter} is outside the fixture command contract (Shipshape reference)`);
        return 2;
      }
    }
  }
  const operands = args.slice(index);
  const arg0 = context.argv[0] ?? 'sh';
  if (command) {
    const script = operands[0];
    if (script === undefined) {
      complain(context, `${name}: -c requires an argument`);
      return 2;
    }
    const shell = Shell.start(context, {
      arg0: operands[1] ?? arg0,
      positional: operands.slice(2),
      mode: 'command',
      numberedMessages: operands.length > 1,
      interactive: false,
    });
    return shell.runCommandString(script);
  }
  const file = operands[0];
  if (file !== undefined && !fromStdin) {
    const path = resolvePath(context.cwd, file);
    const stat = context.fs.stat(path);
    if (stat?.kind !== 'file') {
      complain(context, `${name}: can't open '${file}': ${stat === undefined ? 'No such file or directory' : 'Is a directory'}`);
      return 2;
    }
    const shell = Shell.start(context, { arg0: file, positional: operands.slice(1), mode: 'file', numberedMessages: true, interactive: false });
    return shell.runFile(context.fs.readFile(path).toString('utf8'));
  }
  const shell = Shell.start(context, {
    arg0,
    positional: operands,
    mode: 'stdin',
    numberedMessages: false,
    interactive: interactive || context.tty,
  });
  return shell.runStdin();
};
