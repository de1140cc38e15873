/**
 * Container cycles per second: create → start → wait → remove of `true`, one cycle at a time, against
 * the reference (started in this process, on a Unix socket) and against a real dockerd, through the
 * same EngineClient over the wire, so both targets pay the same client costs. Each target gets a
 * warm-up, then N runs of cycles (more on the reference, where a cycle is short, so that a run is long
 * enough to time); the figures are the medians of the runs, with the time each step takes (median per
 * cycle). The load average is printed too: on a shared machine it explains most of the spread. The fixture image is the harness's (busybox:latest on the reference, the
 * imported shipshape-busybox on dockerd, imported and removed again if dockerd lacks it); every
 * container a cycle creates is removed, on failure too.
 *
 *   node --import tsx bench/container-cycle.bench.ts [runs=3] [reference cycles=500] [dockerd cycles=50] [dockerd=unix:///tmp/d/docker.sock]
 */
import os from 'node:os';
import type { ApiResponse } from '../harness/client/api-response.ts';
import { EngineClient } from '../harness/client/engine-client.ts';
import { createDispatcher } from '../harness/client/dispatcher.ts';
import { ensureFixtureImage } from '../harness/fixture-image.ts';
import { newRunId } from '../harness/resources.ts';
import { connectionOf, reach } from '../harness/run/prepare-target.ts';
import { measureReferenceThenDockerd } from './bench-targets.ts';

const runs = Number(process.argv[2] ?? 3);
const referenceCycles = Number(process.argv[3] ?? 500);
const dockerdCycles = Number(process.argv[4] ?? 50);
const dockerdUrl = process.argv[5] ?? 'unix:///tmp/d/docker.sock';
const API_VERSION = '1.25';
/** Unmeasured cycles first, a fifth of a run: enough for the JIT on the reference's side and in the client. */
const WARM_UP_SHARE = 0.2;
const STEPS = ['create', 'start', 'wait', 'remove'] as const;
type Step = (typeof STEPS)[number];

const perStep = <T>(value: (name: Step) => T) => Object.fromEntries(STEPS.map((name) => [name, value(name)])) as Record<Step, T>;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

function expectStatus(res: ApiResponse, status: number): void {
  if (res.status !== status) throw new Error(`expected ${status}: ${res.describe()}`);
}

/** One cycle; adds each step's milliseconds to `spent`. The container is gone when it returns or throws. */
async function cycle(engine: EngineClient, image: string, spent: Record<Step, number[]>): Promise<void> {
  let started = performance.now();
  const step = (name: Step) => {
    const now = performance.now();
    spent[name].push(now - started);
    started = now;
  };
  const created = await engine.post('/containers/create', { json: { Image: image, Cmd: ['true'] } });
  expectStatus(created, 201);
  step('create');
  const { Id: id } = created.json<{ Id: string }>();
  try {
    expectStatus(await engine.post(`/containers/${id}/start`), 204);
    step('start');
    const waited = await engine.post(`/containers/${id}/wait`);
    expectStatus(waited, 200);
    if (waited.json<{ StatusCode: number }>().StatusCode !== 0) throw new Error(`\`true\` exited non-zero: ${waited.describe()}`);
    step('wait');
    expectStatus(await engine.delete(`/containers/${id}`), 204);
    step('remove');
  } catch (error) {
    await engine.delete(`/containers/${id}`, { query: { force: 1 } });
    throw error;
  }
}

interface Figures {
  cycles: number;
  cyclesPerSecond: number;
  /** the slowest and fastest run, cycles/s */
  range: [number, number];
  stepMs: Record<Step, number>;
}

async function measure(url: string, cycles: number): Promise<Figures> {
  const connection = connectionOf(url);
  const dispatcher = createDispatcher(connection);
  const engine = new EngineClient(connection, dispatcher, API_VERSION);
  try {
    await reach(engine, url);
    const fixture = await ensureFixtureImage(engine, process.env.SHIPSHAPE_BUSYBOX ?? '/bin/busybox', newRunId());
    try {
      const warmUp = perStep((): number[] => []);
      for (let i = 0; i < Math.ceil(cycles * WARM_UP_SHARE); i += 1) await cycle(engine, fixture.image, warmUp);
      const rates: number[] = [];
      const stepMedians = perStep((): number[] => []);
      for (let run = 0; run < runs; run += 1) {
        const spent = perStep((): number[] => []);
        const started = performance.now();
        for (let i = 0; i < cycles; i += 1) await cycle(engine, fixture.image, spent);
        rates.push(cycles / ((performance.now() - started) / 1000));
        for (const name of STEPS) stepMedians[name].push(median(spent[name]));
        // The client keeps every exchange for failure messages; a bench has no use for them.
        engine.exchanges.length = 0;
      }
      return { cycles, cyclesPerSecond: median(rates), range: [Math.min(...rates), Math.max(...rates)], stepMs: perStep((name) => median(stepMedians[name])) };
    } finally {
      await fixture.release();
    }
  } finally {
    await dispatcher.close();
  }
}

const results = await measureReferenceThenDockerd(dockerdUrl, (url, target) => measure(url, target === 'reference' ? referenceCycles : dockerdCycles));

const load = os.loadavg().map((value) => value.toFixed(1)).join(' ');
console.log(`create → start → wait → remove of \`true\`, API ${API_VERSION}, one at a time, median of ${runs} runs; Node ${process.version}, ${os.cpus().length} cores, load average ${load}`);
console.log(`| target | cycles per run | cycles/s (runs' range) | ${STEPS.map((name) => `${name} ms`).join(' | ')} |`);
console.log(`|---|---|---|${STEPS.map(() => '---').join('|')}|`);
for (const [target, figures] of results) {
  console.log(`| ${target} | ${figures.cycles} | ${figures.cyclesPerSecond.toFixed(1)} (${figures.range.map((rate) => rate.toFixed(1)).join('–')}) | ${STEPS.map((name) => figures.stepMs[name].toFixed(2)).join(' | ')} |`);
}
