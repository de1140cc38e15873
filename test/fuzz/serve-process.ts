/**
 * `shipshape serve` as a child process, engine (a swarm manager, so the swarm endpoints do their work),
 * token service and accounts API on loopback ports the system picks: a crash is the child's exit, its memory is /proc/PID/status.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');

export interface ServeProcess {
  child: ChildProcess;
  urls: { engine: string; token: string; accounts: string };
  /** the end of what the process wrote to stderr (why it died) */
  stderrTail: () => string;
  /** set once the process has exited */
  exited: () => { code: number | null; signal: NodeJS.Signals | null } | undefined;
  stop: () => Promise<void>;
}

/** The process's resident set and its peak so far, in MB (VmRSS, VmHWM); undefined once it is gone. */
export function memoryOf(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) the process has used; undefined once it is gone. */
export function cpuSecondsOf(pid: number): number | undefined {
  try {
    // fields 14 and 15 of /proc/PID/stat, after the command name in parentheses
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** The idle timeout the child gets: short, so the fuzzer's stalled uploads are ended well before its deadline. */
export const IDLE_TIMEOUT_SECONDS = 3;

/**
 * The child's V8 old space, in MB. Left to itself V8 sizes the heap by the host's memory (about 4 GB
 * here) and lets garbage reach 1.3 GB over 100 000 requests before it collects; capped, the same run
 * peaks under 500 MB at the same speed. The cap also turns a real leak into a crash, which the fuzz reports.
 */
export const SERVE_HEAP_MB = 256;

export async function startServe(): Promise<ServeProcess> {
  const child = spawn(process.execPath, [`--max-old-space-size=${SERVE_HEAP_MB}`, CLI, 'serve', '--swarm', 'true', '--idle-timeout', String(IDLE_TIMEOUT_SECONDS), '--engine', 'tcp://127.0.0.1:0', '--token', 'tcp://127.0.0.1:0', '--accounts', 'tcp://127.0.0.1:0'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  child.once('exit', (code, signal) => {
    exit = { code, signal };
  });
  let stdout = '';
  const urls = await new Promise<ServeProcess['urls']>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = Object.fromEntries([...stdout.matchAll(/^(engine|token|accounts): (\S+)$/gm)].map(([, name, url]) => [name, url?.replace(/^tcp:/, 'http:')]));
      if (found.engine && found.token && found.accounts) resolve(found as ServeProcess['urls']);
    });
    child.once('exit', () => reject(new Error(`shipshape serve exited before it listened: ${stderr}`)));
  });
  return {
    child,
    urls,
    stderrTail: () => stderr,
    exited: () => exit,
    stop: async () => {
      if (exit) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
