/**
 * Test helpers: start a simulated process on a manual clock, in a container filesystem of the
 * reference's busybox layout, and collect what it prints.
 */
import { busyboxRootfsLayer } from '../../../reference/engine/filesystem/busybox-layer.ts';
import { ImageLayerStack } from '../../../reference/engine/filesystem/image-layer-stack.ts';
import { LayeredFilesystem, type LayeredFilesystemOptions } from '../../../reference/engine/filesystem/layered-filesystem.ts';
import { startProcess, type SimulatedProcess, type StartProcessOptions } from '../../../reference/engine/process/simulated-process.ts';
import { ManualScheduler } from '../../../reference/engine/process/scheduler.ts';
import type { ExitStatus } from '../../../reference/engine/process/task.ts';

const BUSYBOX_IMAGE = new ImageLayerStack([busyboxRootfsLayer()]);

/** A fresh container filesystem over the synthetic busybox image (the fixture image's layout). */
export function busyboxFilesystem(options: LayeredFilesystemOptions = {}): LayeredFilesystem {
  return new LayeredFilesystem(BUSYBOX_IMAGE, options);
}

export interface Started {
  process: SimulatedProcess;
  clock: ManualScheduler;
  fs: LayeredFilesystem;
  /** everything printed so far */
  stdout(): string;
  stderr(): string;
}

export type TestProcessOptions = Partial<Omit<StartProcessOptions, 'filesystem' | 'argv'>> & { fs?: LayeredFilesystem; clock?: ManualScheduler };

export function start(argv: string[], options: TestProcessOptions = {}): Started {
  const clock = options.clock ?? new ManualScheduler();
  const fs = options.fs ?? busyboxFilesystem();
  const process = startProcess({
    env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'HOSTNAME=box', 'HOME=/root'],
    hostname: 'box',
    openStdin: false,
    ...options,
    argv,
    filesystem: fs,
    scheduler: clock,
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  process.stdout.on('data', (chunk) => out.push(chunk));
  process.stderr.on('data', (chunk) => err.push(chunk));
  return {
    process,
    clock,
    fs,
    stdout: () => Buffer.concat(out).toString('utf8'),
    stderr: () => Buffer.concat(err).toString('utf8'),
  };
}

export interface Finished extends ExitStatus {
  stdout: string;
  stderr: string;
}

/** Runs to the end, moving the manual clock as far as `maxMs` (for sleeps). */
export async function run(argv: string[], options: TestProcessOptions & { maxMs?: number } = {}): Promise<Finished & { fs: LayeredFilesystem }> {
  const started = start(argv, options);
  const status = await finish(started, options.maxMs ?? 0);
  return { ...status, stdout: started.stdout(), stderr: started.stderr(), fs: started.fs };
}

/** `sh -c SCRIPT` to the end. */
export function sh(script: string, options: TestProcessOptions & { maxMs?: number } = {}) {
  return run(['sh', '-c', script], options);
}

/**
 * Advances the clock in steps until the process exits; fails after `maxMs` of simulated time (and
 * a moment of real time, for output that takes a few turns of the event loop).
 */
export async function finish(started: Started, maxMs: number, stepMs = 100): Promise<ExitStatus> {
  let exited: ExitStatus | undefined;
  void started.process.exited.then((status) => (exited = status));
  for (let elapsed = 0; ; elapsed += stepMs) {
    await started.clock.advance(elapsed === 0 ? 0 : stepMs);
    if (exited) return exited;
    if (elapsed >= maxMs) break;
  }
  const late = await Promise.race([started.process.exited, new Promise<undefined>((resolve) => setTimeout(resolve, 1000))]);
  if (late) return late;
  throw new Error(`still running after ${maxMs} ms of simulated time; stdout so far: ${JSON.stringify(started.stdout().slice(-300))}`);
}
