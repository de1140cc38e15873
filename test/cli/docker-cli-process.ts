/**
 * The docker CLI and `shipshape serve` as child processes, for the project tests that drive the real
 * CLI against the reference. The CLI is `docker` on PATH, or SHIPSHAPE_DOCKER_CLI (Debian's docker.io
 * puts 20.10 at /usr/bin/docker). Every CLI call has a deadline: a hang fails with the command named,
 * not with the test's timeout.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHIPSHAPE = path.join(REPO_ROOT, 'bin/shipshape.js');
export const DOCKER = process.env.SHIPSHAPE_DOCKER_CLI ?? 'docker';
export const CLI_API_VERSIONS = ['1.24', '1.25'] as const;
/** Long enough for a busy CI machine, short enough that a hang fails well before the test's own timeout. */
export const CALL_TIMEOUT_MS = 10_000;
/** Starting `serve` transpiles the reference on first use: seconds on a busy two-core machine. */
export const SERVE_START_TIMEOUT_MS = 60_000;

export const cliProbe = spawnSync(DOCKER, ['--version'], { encoding: 'utf8' });
export const dockerCliInstalled = cliProbe.status === 0;
if (!dockerCliInstalled) {
  console.warn(`docker CLI tests skipped: \`${DOCKER} --version\` failed (${cliProbe.error?.message ?? cliProbe.stderr.trim()}); install docker.io or set SHIPSHAPE_DOCKER_CLI`);
}
/** what the suites' `describe` calls itself: the CLI's own version line */
export const CLI_NAME = cliProbe.stdout?.trim() || DOCKER;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** set when the command stopped reading before it had all its input (it exited first): the code tells whether that was a failure */
  unreadInput?: string;
}

/** How writing to a command's stdin fails once the command no longer reads it: it exited, or closed its stdin. */
const STOPPED_READING = new Set(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED']);

export interface CliRun {
  /** resolves when the process exits; rejects naming the command when it outlives its deadline */
  done: Promise<CliResult>;
  write(text: string): void;
  /** closes its stdin */
  end(): void;
  /** what it has printed so far */
  stdout(): string;
  /** ends a command that would run on (a stream it follows) */
  stop(): void;
}

/** Starts a command; its stdin stays open until the caller ends it. */
export function startCli(file: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = CALL_TIMEOUT_MS): CliRun {
  const child = spawn(file, args, { env });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const command = [file, ...args].join(' ');
  let unreadInput: string | undefined;
  const done = new Promise<CliResult>((resolve, reject) => {
    // A command may exit before reading its stdin (tar, a docker call that failed early): the write then
    // fails with EPIPE, which is no error of the test's; without this listener it would be an uncaught one.
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (STOPPED_READING.has(error.code ?? '')) unreadInput ??= `\`${command}\` stopped reading its stdin: ${error.message}`;
      else reject(new Error(`\`${command}\`: writing its stdin failed: ${error.message}`));
    });
    // SIGKILL: the CLI forwards SIGTERM to the container (sig-proxy) and would go on waiting.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`\`${command}\` did not finish within ${timeoutMs} ms; stdout ${JSON.stringify(stdout.slice(-300))}, stderr ${JSON.stringify(stderr.slice(-300))}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? 128 + (os.constants.signals[signal ?? 'SIGKILL'] ?? 0), stdout, stderr, ...(unreadInput !== undefined && { unreadInput }) });
    });
  });
  return { done, write: (text) => child.stdin.write(text), end: () => child.stdin.end(), stdout: () => stdout, stop: () => child.kill('SIGTERM') };
}

/** Runs a command to its end with `input` as the whole of its stdin. */
export function runCli(file: string, args: string[], env: NodeJS.ProcessEnv, input = '', timeoutMs = CALL_TIMEOUT_MS): Promise<CliResult> {
  const run = startCli(file, args, env, timeoutMs);
  run.write(input);
  run.end();
  return run.done;
}

export interface ServedReference {
  url: string;
  stop(): Promise<void>;
  /** SIGKILL, as a daemon that crashes: no clean-up, its socket file left behind */
  kill(): Promise<void>;
}

/** `shipshape serve --dialect docker` (and `flags`) on a socket in `dir`; resolves with its URL once it prints it. */
export async function serveReference(dir: string, flags: string[] = []): Promise<ServedReference> {
  const child = spawn(process.execPath, [SHIPSHAPE, 'serve', '--dialect', 'docker', ...flags, '--engine', `unix://${path.join(dir, 'engine.sock')}`], { cwd: REPO_ROOT });
  let printed = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
      const found = /^engine: (unix:\/\/\S+)$/m.exec(printed)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`shipshape serve exited ${code} before printing its URL: ${printed}`)));
  });
  const ended = new Promise((resolve) => child.once('exit', resolve));
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await ended;
  };
  return { url, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}

/**
 * A `shipshape serve` (with `flags`) for the describe block it is called in: started before its tests
 * in a temporary directory named by `prefix`, stopped (and the directory removed) after them; with
 * `each`, a fresh one in a fresh directory for each test.
 */
export function servedForSuite(prefix: string, options: { flags?: string[]; each?: boolean } = {}): { server: () => ServedReference; dir: () => string } {
  let dir: string;
  let server: ServedReference;
  const [before, after] = options.each ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    server = await serveReference(dir, options.flags);
  }, SERVE_START_TIMEOUT_MS);
  after(async () => {
    await server?.stop();
    await fs.rm(dir, { recursive: true, force: true });
  });
  return { server: () => server, dir: () => dir };
}

/** The CLI pinned to `version` against a served reference: any call, a call that must succeed (its stdout), and one left running. */
export function cliAgainst(served: ReturnType<typeof servedForSuite>, version: string) {
  const env = () => ({ ...process.env, DOCKER_HOST: served.server().url, DOCKER_API_VERSION: version, DOCKER_CONFIG: path.join(served.dir(), 'docker-config') });
  const docker = (args: string[], input?: string) => runCli(DOCKER, args, env(), input);
  const dockerOk = async (args: string[]): Promise<string> => {
    const result = await docker(args);
    expect(result.code, `docker ${args.join(' ')}: ${result.stderr}${result.unreadInput ?? ''}`).toBe(0);
    return result.stdout;
  };
  const dockerStarted = (args: string[], timeoutMs?: number) => startCli(DOCKER, args, env(), timeoutMs);
  return { docker, dockerOk, dockerStarted };
}
