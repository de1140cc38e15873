/**
 * `shipshape <command>`: dispatch, and the one rule for everything a user can get wrong: one clear
 * line on stderr and exit 2, never a stack trace (SHIPSHAPE_DEBUG=1 shows it for bug reports).
 */
import { runCommand } from './run-command.ts';
import { serveCommand } from './serve-command.ts';
import { diffCommand } from './diff-command.ts';
import { compareCommand } from './compare-command.ts';
import { mergeCommand } from './merge-command.ts';
import { listCommand } from './list-command.ts';
import { cleanupCommand } from './cleanup-command.ts';
import { coverageCommand } from './coverage-command.ts';
import { changesCommand } from './changes-command.ts';

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  run: runCommand,
  serve: serveCommand,
  diff: diffCommand,
  compare: compareCommand,
  merge: mergeCommand,
  list: listCommand,
  cleanup: cleanupCommand,
  coverage: coverageCommand,
  changes: changesCommand,
};

const USAGE = `usage: shipshape <command> [options]
  run      run the checks against a target and write reports
  serve    start the reference servers
  diff     compare two report.json files
  compare  several runs (implementations) side by side, as HTML and Markdown
  merge    join the reports of a sharded run (run --shard I/N) into one
  list     list the checks and their metadata
  cleanup  remove what crashed runs left on a target
  coverage map the spec inventory to the checks that cover it
  changes  what a client sees change between two API versions`;

/** `shipshape list | head`: a reader that goes away ends the output, quietly, as for any Unix tool. */
function endQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

export async function main(argv: string[]): Promise<number> {
  endQuietlyWhenStdoutCloses();
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`shipshape: unknown command ${JSON.stringify(name)} (run, serve, diff, compare, merge, list, cleanup, coverage, changes)`);
    return 2;
  }
  try {
    return await command(args);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`shipshape ${name}: ${message.split('\n')[0]}`);
    if (process.env.SHIPSHAPE_DEBUG && error instanceof Error) console.error(error.stack);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
