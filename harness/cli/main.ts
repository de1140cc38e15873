/**
 * `shipshape <command>`: dispatch, and the one rule for everything a user can get wrong: one clear
 * line on stderr and exit 2, never a stack trace (SHIPSHAPE_DEBUG=1 shows it for bug reports).
 */
// Each command is loaded when asked for: a `diff` need not load vitest, nor `run` the report renderers up front.
const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  run: async (args) => (await import('./run-command.ts')).runCommand(args),
  serve: async (args) => (await import('./serve-command.ts')).serveCommand(args),
  diff: async (args) => (await import('./diff-command.ts')).diffCommand(args),
  compare: async (args) => (await import('./compare-command.ts')).compareCommand(args),
  merge: async (args) => (await import('./merge-command.ts')).mergeCommand(args),
  list: async (args) => (await import('./list-command.ts')).listCommand(args),
  cleanup: async (args) => (await import('./cleanup-command.ts')).cleanupCommand(args),
  coverage: async (args) => (await import('./coverage-command.ts')).coverageCommand(args),
  changes: async (args) => (await import('./changes-command.ts')).changesCommand(args),
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
