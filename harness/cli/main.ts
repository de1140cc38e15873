/**
 * `shipshape <command>`: dispatch, and the one rule for everything a user can get wrong: one clear
 * line on stderr and exit 2, never a stack trace (SHIPSHAPE_DEBUG=1 shows it for bug reports).
 */
import { closestName, HelpRequested, renderCommandHelp } from './command-help.ts';
import { readToolVersion } from './tool-version.ts';
import { API_VERSIONS } from '../../protocol/versions.ts';

type Command = (args: string[]) => Promise<number>;

// Each command is loaded when asked for: a `diff` need not load vitest, nor `run` the report renderers up
// front. Its flags, their help and its examples are in its own file, in the table that parses them.
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  run: { summary: 'run the checks against a target and write reports', load: async () => (await import('./run-command.ts')).runCommand },
  serve: { summary: 'start the reference servers (a fake daemon, token service, accounts API, registry)', load: async () => (await import('./serve-command.ts')).serveCommand },
  diff: { summary: 'regressions, fixes, new and removed checks between two report.json files', load: async () => (await import('./diff-command.ts')).diffCommand },
  compare: { summary: 'several runs (implementations) side by side, as HTML and Markdown', load: async () => (await import('./compare-command.ts')).compareCommand },
  merge: { summary: 'join the reports of a sharded run (run --shard I/N) into one', load: async () => (await import('./merge-command.ts')).mergeCommand },
  list: { summary: 'list the checks and their metadata', load: async () => (await import('./list-command.ts')).listCommand },
  cleanup: { summary: 'remove what crashed runs left on a target', load: async () => (await import('./cleanup-command.ts')).cleanupCommand },
  coverage: { summary: 'map the spec inventory to the checks that cover it', load: async () => (await import('./coverage-command.ts')).coverageCommand },
  changes: { summary: 'what a client sees change between two API versions', load: async () => (await import('./changes-command.ts')).changesCommand },
  certify: { summary: 'run every check at every version and write a certificate (reports, badge, manifest of digests)', load: async () => (await import('./certify-command.ts')).certifyCommand },
  verify: { summary: 'check a certificate: digests, check list, and every spec result present and passed', load: async () => (await import('./verify-command.ts')).verifyCommand },
};

const VERSION_RANGE = `${API_VERSIONS[0]}–${API_VERSIONS[API_VERSIONS.length - 1]}`;

async function versionText(): Promise<string> {
  return `shipshape ${await readToolVersion()}\nchecks Engine API versions ${API_VERSIONS.join(', ')} (run --api picks among them)`;
}

async function overview(): Promise<string> {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((name) => name.length)) + 2;
  return [
    `shipshape ${await readToolVersion()}: conformance checks for the Container Engine Remote API ${VERSION_RANGE}, its token service and accounts API`,
    '',
    'usage: shipshape <command> [flags]',
    '       shipshape help <command>   (or shipshape <command> --help): its flags, their defaults, examples',
    '       shipshape --version',
    '',
    'commands:',
    ...names.map((name) => `  ${name.padEnd(width)}${COMMANDS[name]!.summary}`),
    '',
    'examples:',
    `  shipshape run                      every check against the embedded reference, at ${VERSION_RANGE}`,
    "  shipshape run --target unix:///var/run/docker.sock --dialect docker --api 1.24,1.25 --only 'containers.**'",
    '  shipshape serve --engine tcp://127.0.0.1:2375',
    '  shipshape diff reports/main/report.json reports/latest/report.json',
    '',
  ].join('\n');
}

async function dispatch(name: string, args: string[]): Promise<number> {
  const command = COMMANDS[name];
  if (!command) {
    console.error(`shipshape: unknown command ${JSON.stringify(name)}; did you mean ${closestName(name, Object.keys(COMMANDS))}? (shipshape --help lists the commands)`);
    return 2;
  }
  try {
    return await (await command.load())(args);
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(renderCommandHelp(error.command, command.summary));
      return 0;
    }
    const message = error instanceof Error ? error.message : String(error);
    console.error(`shipshape ${name}: ${message.split('\n')[0]}`);
    if (process.env.SHIPSHAPE_DEBUG && error instanceof Error) console.error(error.stack);
    return 2;
  }
}

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
  if (name === '--version' || name === '-v') {
    console.log(await versionText());
    return 0;
  }
  if (name === undefined) {
    // a bare `shipshape` is a mistake in a script: the overview goes to stderr, with exit 2
    process.stderr.write(await overview());
    return 2;
  }
  if (name === '--help' || name === '-h' || (name === 'help' && args[0] === undefined)) {
    process.stdout.write(await overview());
    return 0;
  }
  return name === 'help' ? dispatch(args[0]!, ['--help']) : dispatch(name, args);
}

process.exitCode = await main(process.argv.slice(2));
