/**
 * stop, restart and kill as model-based properties (spec/1 §3, §4.1, §2.3): each case runs its own
 * container, and the cases of one run go at once so that a run lasts about its longest `t`. The
 * outcome of each case follows from what it asked for:
 *
 * - stop or restart with a random t of 0 to 2 seconds of a process that ignores SIGTERM (PID 1 without
 *   a trap, fixture command contract): the container is killed once t has elapsed, neither before nor
 *   much later; from 1.21, where StopSignal gives SIGTERM as the default signal used to stop, of a shell
 *   that traps TERM and exits 3: with t of 1 or more it exits 3 (with t=0 the kill may come first);
 * - kill with a random signal, by name or number, of a shell that traps each of them with an exit code
 *   of its own: the code of the signal sent; SIGKILL (by name, number or left out) cannot be trapped.
 *
 * The exit code of a killed process is not the spec's (128 + 9 is dockerd's: the docker-level check).
 */
import fc from 'fast-check';
import { check, type CheckContext } from '../../harness/check.ts';
import { assertProperty } from '../../harness/property-check.ts';
import { atLeast } from '../../protocol/versions.ts';
import { until } from '../../harness/wait-until.ts';
import { containerState, exitedState, expectStateOf, startedContainer, type ContainerState } from '../container-steps.ts';

/** PID 1 ignores SIGTERM unless it traps it: `stop` of this waits its `t` seconds, then kills. */
const IGNORES_SIGTERM = ['sleep', '300'];
/** Exits 3 on SIGTERM once the trap is set (its `sleep 300` child shows that it is). */
const EXITS_3_ON_SIGTERM = ['sh', '-c', "trap 'exit 3' TERM; sleep 300 & wait"];
/** A stop may end a little early by the clocks' rounding, and late by a busy target: not by seconds. */
const EARLY_MS = 50;
const LATE_MS = 7_000;
/** how often a restarted container is inspected until it shows its new start */
const POLL_MS = 50;
/**
 * Runs of the batches: each batch lasts about its longest t (at most 2 s), so one run of several cases.
 * A failing batch is not shrunk (NO_SHRINK): each replay costs seconds of real time and the check has
 * a deadline; the batch that failed is reported as it ran.
 */
const NO_SHRINK = 0;
const STOP_RUNS = 1;
const KILL_RUNS = 2;

/** Signals the kill cases send, each trapped by the shell with the exit code beside it. */
const TRAPPED: ReadonlyArray<readonly [name: string, number: number, exitCode: number]> = [
  ['SIGHUP', 1, 11],
  ['SIGINT', 2, 12],
  ['SIGQUIT', 3, 13],
  ['SIGUSR1', 10, 14],
  ['SIGUSR2', 12, 15],
  ['SIGALRM', 14, 16],
  ['SIGTERM', 15, 17],
];
const TRAP_CODES = TRAPPED.map(([, , code]) => code);
/** Exits with the code of the signal it got, once its traps are set. */
const REPORTS_SIGNALS = ['sh', '-c', `${TRAPPED.map(([name, , code]) => `trap 'exit ${code}' ${name.slice(3)}`).join('; ')}; sleep 300 & wait`];

/** Waits until a shell has set its traps: its `sleep 300` child shows in top. */
async function trapsSet(context: CheckContext, id: string): Promise<void> {
  await until(
    async () => {
      const res = await context.engine.get(`/containers/${id}/top`);
      context.expect(res.status, 'GET /containers/{id}/top status').toBe(200);
      return res.json<{ Processes: string[][] }>().Processes;
    },
    (processes) => processes.some((row) => row.join(' ').includes('sleep 300')),
    { what: 'the shell to set its traps and start sleep 300' },
  );
}

/** Settles every case before judging any, so that no case is still running when the check fails. */
async function allSettled<T>(work: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(work);
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
}

interface StopCase {
  op: 'stop' | 'restart';
  t: number;
  process: 'ignores-term' | 'traps-term';
}

interface StopSeen {
  status: number;
  /** stop: ms until the container showed it had stopped; restart: ms until it showed a later start */
  elapsedMs: number;
  before: ContainerState;
  after: ContainerState;
}

function stopCase(processes: StopCase['process'][], ts: number[]): fc.Arbitrary<StopCase> {
  return fc.record({ op: fc.constantFrom<StopCase['op']>('stop', 'restart'), t: fc.constantFrom(...ts), process: fc.constantFrom(...processes) });
}

/** Runs one case on a container of its own; the process has set its trap (if any) before the call. */
async function runStop(context: CheckContext, plan: StopCase): Promise<StopSeen> {
  const id = await startedContainer(context, { Cmd: plan.process === 'traps-term' ? EXITS_3_ON_SIGTERM : IGNORES_SIGTERM });
  if (plan.process === 'traps-term') await trapsSet(context, id);
  const before = await containerState(context, id);
  const startedAt = performance.now();
  const res = await context.engine.post(`/containers/${id}/${plan.op}`, { query: { t: plan.t } });
  if (plan.op === 'restart') {
    // Whether restart answers before or after the kill and the new start §4.1 does not say: the time is
    // taken until the container shows a later start (the new process cannot start before the old one is
    // killed), or the deadline passes and the last state seen is judged.
    let after = await containerState(context, id);
    while (!(after.Running && Date.parse(after.StartedAt) > Date.parse(before.StartedAt)) && performance.now() - startedAt < plan.t * 1000 + LATE_MS) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      after = await containerState(context, id);
    }
    return { status: res.status, elapsedMs: performance.now() - startedAt, before, after };
  }
  // Whether stop answers before or after the kill §4.1 does not say: the time is taken until the
  // container shows it has stopped (at once if the call waited for it).
  const after = await exitedState(context, id, `the container to stop after ${plan.op} t=${plan.t}`);
  return { status: res.status, elapsedMs: performance.now() - startedAt, before, after };
}

check('containers.stop.property-timeout', {
  title: 'stop and restart with a random t (0 to 2 s) kill a process that ignores SIGTERM once t has elapsed, and (from 1.21) let a shell trapping TERM exit by it',
  spec: '1 §3, §4.1, §2.3, §2.2',
  quote: [
    '| stop, restart | t seconds elapse without the container stopping | container is killed |',
    '| POST /containers/{id_or_name}/stop | t (seconds to wait before killing) | none | 204 | 204, 304, 404, 500 |',
    '| POST /containers/{id_or_name}/restart | t (seconds to wait before killing) | none | 204 | 204, 404, 500 |',
    '| StopSignal | string or unsigned integer | [1.21+] signal used to stop; default SIGTERM |',
    '| POST /containers/{id_or_name}/start |',
    '204 no body | 204, 304, 404, 500 |',
    'Container states visible through the API: created, restarting, running, paused, exited, dead (list filter and State field).',
    'Inspect State booleans: Running, Paused, Restarting, OOMKilled, Dead.',
    'State object: Error (string), ExitCode (integer), FinishedAt (timestamp), OOMKilled (boolean), Dead (boolean, [1.25]), Paused (boolean), Pid (integer), Restarting (boolean), Running (boolean), StartedAt (timestamp), Status (string, [1.21+], for example running).',
  ],
  since: '1.18',
  tags: ['property', 'state'],
  timeoutMs: 55_000,
  covers: [
    '1:POST /containers/{id_or_name}/stop',
    '1:POST /containers/{id_or_name}/stop:query:t',
    '1:POST /containers/{id_or_name}/stop:status:204',
    '1:POST /containers/{id_or_name}/restart',
    '1:POST /containers/{id_or_name}/restart:query:t',
    '1:POST /containers/{id_or_name}/restart:status:204',
  ],
}, async (context) => {
  const { expect, version } = context;
  // Which signal stop sends before StopSignal exists (1.21) the spec does not say.
  const processes: StopCase['process'][] = atLeast(version, '1.21') ? ['ignores-term', 'traps-term'] : ['ignores-term'];
  await assertProperty(context, fc.asyncProperty(fc.array(stopCase(processes, [0, 1, 2]), { minLength: 3, maxLength: 4 }), async (plans) => {
    const seen = await allSettled(plans.map((plan) => runStop(context, plan)));
    plans.forEach((plan, index) => {
      const { status, elapsedMs, before, after } = seen[index]!;
      const what = `POST /v${version}/containers/{id}/${plan.op}?t=${plan.t} of ${plan.process === 'traps-term' ? JSON.stringify(EXITS_3_ON_SIGTERM) : JSON.stringify(IGNORES_SIGTERM)}`;
      expect(status, `${what}: status`).toBe(204);
      if (plan.process === 'ignores-term') {
        // Killed when t has elapsed: not before, and not seconds later (the spec's default is not t).
        expect(elapsedMs, `${what}: ms until ${plan.op === 'stop' ? 'the container had stopped' : 'it showed a later start'}`).toBeGreaterThanOrEqual(plan.t * 1000 - EARLY_MS);
      }
      expect(elapsedMs, `${what}: ms until ${plan.op === 'stop' ? 'the container had stopped' : 'it showed a later start'}`).toBeLessThan(plan.t * 1000 + LATE_MS);
      if (plan.op === 'stop') {
        expectStateOf(context, after, 'exited', `${what}: State after stop`);
        // SIGTERM reaches the trap before the kill when t leaves it time to.
        if (plan.process === 'traps-term' && plan.t >= 1) expect(after.ExitCode, `${what}: State.ExitCode (the trap exits 3)`).toBe(3);
      } else {
        expectStateOf(context, after, 'running', `${what}: State after restart`);
        expect(Date.parse(after.StartedAt), `${what}: State.StartedAt after restart (was ${before.StartedAt}, now ${after.StartedAt})`).toBeGreaterThan(Date.parse(before.StartedAt));
      }
    });
  }), STOP_RUNS, NO_SHRINK);
});

check('containers.stop.property-exit-code', {
  title: 'stop with a random t (0 to 2 s): a process that ignores SIGTERM is killed with SIGKILL (exit 137); a shell trapping TERM exits by it (3) when t is 1 or more, at every version',
  spec: '1 §3',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['property', 'state'],
  timeoutMs: 55_000,
}, async (context) => {
  const { expect, version } = context;
  const plans = fc.oneof(
    fc.record({ op: fc.constant('stop' as const), t: fc.constantFrom(0, 1, 2), process: fc.constant('ignores-term' as const) }),
    fc.record({ op: fc.constant('stop' as const), t: fc.constantFrom(1, 2), process: fc.constant('traps-term' as const) }),
  );
  await assertProperty(context, fc.asyncProperty(fc.array(plans, { minLength: 2, maxLength: 3 }), async (batch) => {
    const seen = await allSettled(batch.map((plan) => runStop(context, plan)));
    batch.forEach((plan, index) => {
      const what = `POST /v${version}/containers/{id}/stop?t=${plan.t} of ${plan.process === 'traps-term' ? JSON.stringify(EXITS_3_ON_SIGTERM) : JSON.stringify(IGNORES_SIGTERM)}`;
      expect(seen[index]!.after.ExitCode, `${what}: State.ExitCode`).toBe(plan.process === 'traps-term' ? 3 : 128 + 9);
    });
  }), 1, NO_SHRINK);
});

interface KillCase {
  /** a trapped signal by name or number, or SIGKILL by name, number or left out */
  signal: string | undefined;
  /** the exit code of its trap; undefined for SIGKILL */
  exitCode: number | undefined;
}

const killCase: fc.Arbitrary<KillCase> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...TRAPPED), fc.boolean()).map(([[name, number, exitCode], byName]) => ({ signal: byName ? name : String(number), exitCode })) },
  { weight: 1, arbitrary: fc.constantFrom('SIGKILL', '9', undefined).map((signal) => ({ signal, exitCode: undefined })) },
);

interface KillSeen {
  status: number;
  /** State read right after the call answered */
  atAnswer: ContainerState;
  after: ContainerState;
}

async function runKill(context: CheckContext, plan: KillCase): Promise<KillSeen> {
  const id = await startedContainer(context, { Cmd: REPORTS_SIGNALS });
  await trapsSet(context, id);
  const res = await context.engine.post(`/containers/${id}/kill`, plan.signal === undefined ? {} : { query: { signal: plan.signal } });
  const atAnswer = await containerState(context, id);
  return { status: res.status, atAnswer, after: await exitedState(context, id, `the container to exit after kill ${plan.signal ?? '(no signal)'}`) };
}

check('containers.kill.property-signals', {
  title: 'kill with a random signal (by name or number) of a shell that traps each with its own exit code delivers that signal; SIGKILL, also by default, ends it untrapped',
  spec: '1 §4.1, §3, §2.2',
  quote: [
    '| POST /containers/{id_or_name}/kill | signal (integer or name like SIGINT; default SIGKILL) | none | 204 | 204, 404, 500 |',
    '| kill | signal omitted | SIGKILL is sent and the call waits for the container to exit |',
    '| GET /containers/{id_or_name}/top | ps_args (string, default `-ef`) | none | 200 {Titles, Processes}; not supported on Windows | 200, 404, 500 |',
    '| POST /containers/{id_or_name}/start |',
    '204 no body | 204, 304, 404, 500 |',
    'Container states visible through the API: created, restarting, running, paused, exited, dead (list filter and State field).',
    'Inspect State booleans: Running, Paused, Restarting, OOMKilled, Dead.',
    'State object: Error (string), ExitCode (integer), FinishedAt (timestamp), OOMKilled (boolean), Dead (boolean, [1.25]), Paused (boolean), Pid (integer), Restarting (boolean), Running (boolean), StartedAt (timestamp), Status (string, [1.21+], for example running).',
  ],
  since: '1.18',
  tags: ['property', 'state'],
  timeoutMs: 55_000,
  covers: ['1:POST /containers/{id_or_name}/kill', '1:POST /containers/{id_or_name}/kill:query:signal', '1:POST /containers/{id_or_name}/kill:status:204'],
}, async (context) => {
  const { expect, version } = context;
  await assertProperty(context, fc.asyncProperty(fc.array(killCase, { minLength: 2, maxLength: 4 }), async (plans) => {
    const seen = await allSettled(plans.map((plan) => runKill(context, plan)));
    plans.forEach((plan, index) => {
      const { status, atAnswer, after } = seen[index]!;
      const what = `POST /v${version}/containers/{id}/kill${plan.signal === undefined ? '' : `?signal=${plan.signal}`} of ${JSON.stringify(REPORTS_SIGNALS)}`;
      expect(status, `${what}: status`).toBe(204);
      // Left out, SIGKILL is sent and the call waits for the exit: stopped when it answers.
      if (plan.signal === undefined) expectStateOf(context, atAnswer, 'exited', `${what}: State right after the call`);
      expectStateOf(context, after, 'exited', `${what}: State after the signal`);
      if (plan.exitCode === undefined) {
        // SIGKILL cannot be trapped: whatever code the kill leaves, it is none of the traps'.
        expect(TRAP_CODES, `${what}: the trap codes hold no State.ExitCode ${after.ExitCode}`).not.toContain(after.ExitCode);
      } else {
        expect(after.ExitCode, `${what}: State.ExitCode (the trap of that signal)`).toBe(plan.exitCode);
      }
    });
  }), KILL_RUNS, NO_SHRINK);
});
