/**
 * The CLI explains itself: `--help` of every command lists every flag of the table that parses it,
 * with its default, and examples that parse; `--version`; an unknown flag or command is one line
 * naming the closest known one, exit 2.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { closestName, HelpRequested, renderCommandHelp, type CommandSpec } from '../../harness/cli/command-help.ts';
import { parseFlags } from '../../harness/cli/parse-flags.ts';
import { UsageError } from '../../harness/cli/usage-error.ts';
import { RUN_COMMAND } from '../../harness/cli/run-command.ts';
import { SERVE_COMMAND } from '../../harness/cli/serve-command.ts';
import { DIFF_COMMAND } from '../../harness/cli/diff-command.ts';
import { COMPARE_COMMAND } from '../../harness/cli/compare-command.ts';
import { MERGE_COMMAND } from '../../harness/cli/merge-command.ts';
import { LIST_COMMAND } from '../../harness/cli/list-command.ts';
import { CLEANUP_COMMAND } from '../../harness/cli/cleanup-command.ts';
import { COVERAGE_COMMAND } from '../../harness/cli/coverage-command.ts';
import { CHANGES_COMMAND } from '../../harness/cli/changes-command.ts';
import { CERTIFY_COMMAND } from '../../harness/cli/certify-command.ts';
import { VERIFY_COMMAND } from '../../harness/cli/verify-command.ts';
import { API_VERSIONS } from '../../protocol/versions.ts';
import { commandWords } from './command-line-words.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');
const COMMANDS: CommandSpec[] = [RUN_COMMAND, SERVE_COMMAND, DIFF_COMMAND, COMPARE_COMMAND, MERGE_COMMAND, LIST_COMMAND, CLEANUP_COMMAND, COVERAGE_COMMAND, CHANGES_COMMAND, CERTIFY_COMMAND, VERIFY_COMMAND];

function shipshape(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, timeout: 120_000 }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }));
  });
}

describe('each command\'s help, from its table of flags', () => {
  for (const command of COMMANDS) {
    it(`${command.name}: usage, every flag with its value and default, examples that parse`, () => {
      const help = renderCommandHelp(command, 'what it does');
      expect(help).toContain(`usage: shipshape ${command.name}${command.arguments ? ` ${command.arguments}` : ''} [flags]`);
      for (const [name, flag] of Object.entries(command.flags)) {
        const label = `  --${name}${flag.type === 'string' ? ` ${flag.value}` : ''}`;
        const at = help.split('\n').findIndex((line) => line === label || line.startsWith(`${label}  `));
        expect(at, `--${name} is listed`).toBeGreaterThan(0);
        // its entry: its line and the indented lines that continue it
        const rest = help.split('\n').slice(at + 1);
        const entry = [help.split('\n')[at]!, ...rest.slice(0, rest.findIndex((line) => !/^ {5,}\S/.test(line)))].join(' ');
        expect(entry.replace(/\s+/g, ' '), `--${name} says its default`).toContain(`(default: ${flag.defaultText ?? String(flag.default ?? 'none')})`);
      }
      expect(command.examples.length).toBeGreaterThan(0);
      for (const example of command.examples) {
        const words = commandWords(example);
        expect(words.slice(0, 2)).toEqual(['shipshape', command.name]);
        expect(() => parseFlags(words.slice(2), command), example).not.toThrow();
      }
    });
  }

  it('--help or -h anywhere among the flags, but not as the value of one or after --', () => {
    expect(() => parseFlags(['--format', 'json', '-h'], DIFF_COMMAND)).toThrow(HelpRequested);
    expect(() => parseFlags(['--bogus', '--help'], DIFF_COMMAND)).toThrow(HelpRequested);
    expect(() => parseFlags(['--password', '-h', '--user', 'u'], RUN_COMMAND)).toThrow(UsageError);
    expect(parseFlags(['--password=-h', '--user', 'u'], RUN_COMMAND).values.password).toBe('-h');
    expect(parseFlags(['a.json', '--', '--help'], DIFF_COMMAND).positionals).toEqual(['a.json', '--help']);
  });

  it('an unknown flag names the closest known one and the help; other mistakes point to the help too', () => {
    expect(() => parseFlags(['--tagret', 'x'], RUN_COMMAND)).toThrow(new UsageError('unknown flag --tagret; did you mean --target? (shipshape run --help lists every flag)'));
    expect(() => parseFlags(['--report=x'], RUN_COMMAND)).toThrow(/^unknown flag --report; did you mean --report-dir\?/);
    expect(() => parseFlags(['--target'], RUN_COMMAND)).toThrow(/^Option '--target <value>' argument missing \(shipshape run --help lists every flag\)$/);
    expect(() => parseFlags(['a.json'], LIST_COMMAND)).toThrow(/\(shipshape list --help lists every flag\)$/);
  });

  it('closestName: a prefix first, else the fewest edits', () => {
    expect(closestName('rep', ['repeat', 'report-dir'])).toBe('repeat');
    expect(closestName('dialekt', ['target', 'dialect', 'api'])).toBe('dialect');
    expect(closestName('srve', ['run', 'serve', 'diff'])).toBe('serve');
  });
});

describe('shipshape --help, help CMD, CMD --help, --version, mistakes', { timeout: 150_000 }, () => {
  it('--help lists every command; help run, run --help and run -h print the run help, exit 0', async () => {
    const overview = await shipshape(['--help']);
    expect(overview.code).toBe(0);
    const commandLines = overview.stdout.split('commands:\n')[1]!.split('\n\n')[0]!.split('\n');
    const listed = commandLines.map((line) => line.trim().split(' ')[0]);
    expect(listed.sort()).toEqual(COMMANDS.map((command) => command.name).sort());
    // each command's help is rendered in-process above; here, that main prints it (loading `run` is the slowest)
    const [helpRun, runHelp, runH] = await Promise.all([shipshape(['help', 'run']), shipshape(['run', '--help']), shipshape(['run', '--target', 'x', '-h'])]);
    expect(runHelp).toEqual(helpRun);
    expect(runH).toEqual(helpRun);
    expect({ code: runHelp.code, stderr: runHelp.stderr }).toEqual({ code: 0, stderr: '' });
    expect(runHelp.stdout).toBe(renderCommandHelp(RUN_COMMAND, 'run the checks against a target and write reports'));
  });

  it('--version prints the tool version and the API versions it checks', async () => {
    const pkg = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const result = await shipshape(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`shipshape ${pkg.version}\nchecks Engine API versions ${API_VERSIONS.join(', ')} (run --api picks among them)\n`);
  });

  it('an unknown flag or command: one line naming the closest, exit 2', async () => {
    const [flag, command] = await Promise.all([shipshape(['serve', '--dialekt', 'docker']), shipshape(['lsit'])]);
    expect(flag).toEqual({ code: 2, stdout: '', stderr: 'shipshape serve: unknown flag --dialekt; did you mean --dialect? (shipshape serve --help lists every flag)\n' });
    expect(command).toEqual({ code: 2, stdout: '', stderr: 'shipshape: unknown command "lsit"; did you mean list? (shipshape --help lists the commands)\n' });
  });
});
