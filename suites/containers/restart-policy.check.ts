/**
 * What happens when a container's process ends (spec/1 §2.3, §8): its restart policy (no, always,
 * on-failure with a maximum, unless-stopped), the delay before each restart, which starts at 100 ms and
 * doubles, and AutoRemove [1.25]. The delays are checked as lower bounds only (a restart never comes
 * before its delay): a busy daemon's own start-up time, seconds under load and varying as much, adds
 * to every gap, so no upper bound or growth between gaps holds on a real daemon.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { until } from '../../harness/wait-until.ts';
import { createContainer, exitedState, expectStateOf, inspectContainer, startContainer, startedContainer } from '../container-steps.ts';

interface RestartView {
  State: { Status?: string; Running: boolean; Restarting: boolean; StartedAt: string };
  RestartCount: number;
}

/** How long a container is watched to show that nothing restarts it: several times the first delays. */
const QUIET_MS = 1_500;
/** The first restart delay (spec/1 §8); each next one doubles it. */
const FIRST_DELAY_MS = 100;
/** Timestamps of two samples may round apart by this much. */
const CLOCK_SLACK_MS = 25;
/** Waits for restarts last this long: a loaded daemon takes seconds to start a container again. */
const RESTARTS_WITHIN_MS = 20_000;
/** The run watched for: five restarts, whose delays grow from 100 ms to 1.6 s. */
const LAST_RUN = 5;

function restartPolicy(Name: string, MaximumRetryCount = 0): Record<string, unknown> {
  return { HostConfig: { RestartPolicy: { Name, MaximumRetryCount } } };
}

function view(context: CheckContext, id: string): Promise<RestartView> {
  return inspectContainer<RestartView>(context, id);
}

function summary({ State, RestartCount }: RestartView): string {
  return JSON.stringify({ Status: State.Status, Running: State.Running, Restarting: State.Restarting, RestartCount });
}

/**
 * Waits until the container is down for good: not running and no restart pending (neither Restarting
 * nor, from 1.21, Status restarting). Whether Running stays true between runs the spec does not say.
 */
function down(context: CheckContext, id: string): Promise<RestartView> {
  return until(() => view(context, id), (seen) => !seen.State.Running && !seen.State.Restarting && seen.State.Status !== 'restarting', { what: 'the container to stay down', timeoutMs: RESTARTS_WITHIN_MS });
}

/** Watches the container for QUIET_MS: the first view that `holds` refuses, or undefined when it held throughout. */
async function firstChange(context: CheckContext, id: string, holds: (seen: RestartView) => boolean): Promise<RestartView | undefined> {
  const deadline = Date.now() + QUIET_MS;
  while (Date.now() < deadline) {
    const seen = await view(context, id);
    if (!holds(seen)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

check('containers.restart-policy.no', {
  title: 'restart policy Name "" (the default, no restart): a container that exits stays exited, RestartCount 0',
  spec: '1 §2.3, §2.2, §3, §4.1',
  quote: ['| RestartPolicy | object | Name: empty (default, no restart), always, on-failure, unless-stopped (unless-stopped from 1.21); MaximumRetryCount (integer) applies to on-failure |', 'RestartCount (integer)', 'Container states visible through the API: created, restarting, running, paused, exited, dead (list filter and State field).', 'Inspect State booleans: Running, Paused, Restarting, OOMKilled, Dead.', 'State object: Error (string), ExitCode (integer), FinishedAt (timestamp), OOMKilled (boolean), Dead (boolean, [1.25]), Paused (boolean), Pid (integer), Restarting (boolean), Running (boolean), StartedAt (timestamp), Status (string, [1.21+], for example running).', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:POST /containers/create:body:HostConfig.RestartPolicy'],
}, async (context) => {
  // spec/1 §2.3 names no restart by an empty Name; docker's "no" is not in the spec.
  const id = await startedContainer(context, { Cmd: ['false'], ...restartPolicy('') });
  const stopped = await down(context, id);
  const changed = await firstChange(context, id, (seen) => !seen.State.Running && seen.RestartCount === 0);
  context.expect(changed && summary(changed), `the container within ${QUIET_MS} ms of exiting (first seen down: ${summary(stopped)})`).toBeUndefined();
  expectStateOf(context, await exitedState(context, id), 'exited', 'State once it stayed down');
});

check('containers.restart-policy.always', {
  title: 'restart policy "always": a container that exits is started again, and RestartCount grows',
  spec: '1 §2.3, §2.2, §4.1',
  quote: ['| RestartPolicy | object | Name: empty (default, no restart), always, on-failure, unless-stopped (unless-stopped from 1.21); MaximumRetryCount (integer) applies to on-failure |', 'RestartCount (integer)', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:POST /containers/create:body:HostConfig.RestartPolicy'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['false'], ...restartPolicy('always') });
  const seen = await until(() => view(context, id), (current) => current.RestartCount >= 2, { what: 'RestartCount to reach 2', timeoutMs: RESTARTS_WITHIN_MS });
  context.expect(seen.RestartCount, `RestartCount of a container that keeps exiting: ${summary(seen)}`).toBeGreaterThanOrEqual(2);
});

check('containers.restart-policy.on-failure-maximum', {
  title: 'restart policy "on-failure" with MaximumRetryCount 2: a failing container is restarted twice, then stays exited',
  spec: '1 §2.3, §2.2, §4.1',
  quote: ['| RestartPolicy | object | Name: empty (default, no restart), always, on-failure, unless-stopped (unless-stopped from 1.21); MaximumRetryCount (integer) applies to on-failure |', 'RestartCount (integer)', 'State object: Error (string), ExitCode (integer), FinishedAt (timestamp), OOMKilled (boolean), Dead (boolean, [1.25]), Paused (boolean), Pid (integer), Restarting (boolean), Running (boolean), StartedAt (timestamp), Status (string, [1.21+], for example running).', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:POST /containers/create:body:HostConfig.RestartPolicy'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['false'], ...restartPolicy('on-failure', 2) });
  const stopped = await down(context, id);
  context.expect(stopped.RestartCount, `RestartCount once the retries are spent: ${summary(stopped)}`).toBe(2);
  const changed = await firstChange(context, id, (seen) => !seen.State.Running && seen.RestartCount === 2);
  context.expect(changed && summary(changed), `the container within ${QUIET_MS} ms of its last exit`).toBeUndefined();
});

check('containers.restart-policy.unless-stopped', {
  title: 'restart policy "unless-stopped": restarted when it exits by itself, not after an explicit stop',
  spec: '1 §2.3, §2.2, §4.1',
  quote: ['| RestartPolicy | object | Name: empty (default, no restart), always, on-failure, unless-stopped (unless-stopped from 1.21); MaximumRetryCount (integer) applies to on-failure |', 'RestartCount (integer)', 'State object: Error (string), ExitCode (integer), FinishedAt (timestamp), OOMKilled (boolean), Dead (boolean, [1.25]), Paused (boolean), Pid (integer), Restarting (boolean), Running (boolean), StartedAt (timestamp), Status (string, [1.21+], for example running).', '| POST /containers/{id_or_name}/stop | t (seconds to wait before killing) | none | 204 | 204, 304, 404, 500 |', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |'],
  since: '1.21',
  tags: ['state'],
  timeoutMs: 45_000,
  covers: ['1:POST /containers/create:body:HostConfig.RestartPolicy', '1:version-rule:1.21:restart-unless-stopped'],
}, async (context) => {
  // Runs a second, then fails; PID 1 ignores SIGTERM, so a stop with t=1 ends it one way or the other.
  const id = await startedContainer(context, { Cmd: ['sh', '-c', 'sleep 1; exit 1'], ...restartPolicy('unless-stopped') });
  await until(() => view(context, id), (seen) => seen.RestartCount >= 1, { what: 'the container to be restarted after failing', timeoutMs: RESTARTS_WITHIN_MS });
  const res = await context.engine.post(`/containers/${id}/stop`, { query: { t: 1 } });
  context.expect(res.status, 'POST /containers/{id}/stop status').toBe(204);
  const stopped = await down(context, id);
  const changed = await firstChange(context, id, (seen) => !seen.State.Running && seen.RestartCount === stopped.RestartCount);
  context.expect(changed && summary(changed), `the container within ${QUIET_MS} ms of the stop (stopped as ${summary(stopped)})`).toBeUndefined();
});

check('containers.restart-policy.backoff', {
  title: 'a restart never comes before its delay, which starts at 100 ms and doubles: gaps between starts of at least 100, 200, 400, 800, 1600 ms',
  spec: '1 §8, §2.3, §2.2, §4.1',
  quote: ['| Restart delay | doubles each restart, starting at 100 ms |', 'Restart behaviour: a growing delay (doubling the previous delay, starting at 100 ms) is inserted before each restart.', '| RestartPolicy | object | Name: empty (default, no restart), always, on-failure, unless-stopped (unless-stopped from 1.21); MaximumRetryCount (integer) applies to on-failure |', 'RestartCount (integer)', 'State object: Error (string), ExitCode (integer), FinishedAt (timestamp), OOMKilled (boolean), Dead (boolean, [1.25]), Paused (boolean), Pid (integer), Restarting (boolean), Running (boolean), StartedAt (timestamp), Status (string, [1.21+], for example running).', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |'],
  since: '1.18',
  tags: ['state'],
  timeoutMs: 45_000,
  covers: ['1:POST /containers/create:body:HostConfig.RestartPolicy'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['false'], ...restartPolicy('always') });
  // StartedAt of each run seen, by run number: a restarting container still shows the start of the run that just ended.
  const startedAt = new Map<number, number>();
  await until(
    async () => {
      const { State, RestartCount } = await view(context, id);
      const run = State.Restarting ? RestartCount - 1 : RestartCount;
      if (run >= 0 && State.Running) startedAt.set(run, Date.parse(State.StartedAt));
      return Object.fromEntries(startedAt);
    },
    // A fast target can restart past run LAST_RUN between two polls: any later run will do.
    (runs) => Object.keys(runs).some((run) => Number(run) >= LAST_RUN) && Object.keys(runs).length >= 2,
    { what: `run ${LAST_RUN} or a later one to start, and an earlier run to be seen`, timeoutMs: 32_000, intervalMs: 20 },
  );
  // A poll can miss a run on a slow target: between two runs seen, every delay in between must have passed.
  const runs = [...startedAt.keys()].sort((a, b) => a - b);
  const gaps = runs.slice(1).map((run, index) => {
    const previous = runs[index] ?? 0;
    const delays = Array.from({ length: run - previous }, (_, offset) => FIRST_DELAY_MS * 2 ** (previous + offset));
    const shortest = delays.reduce((sum, delay) => sum + delay, 0) - CLOCK_SLACK_MS;
    return { runs: `${previous}→${run}`, ms: (startedAt.get(run) ?? 0) - (startedAt.get(previous) ?? 0), shortest };
  });
  const tooSoon = gaps.filter((gap) => gap.ms < gap.shortest);
  context.expect(tooSoon, `restarts that came before their delays had passed, of ${JSON.stringify(gaps)}`).toEqual([]);
});

check('containers.create.auto-remove', {
  title: 'a container created with AutoRemove is removed once its process exits',
  spec: '1 §2.3, §4.1, §7.2',
  quote: ['| AutoRemove | boolean | [1.25] remove container when its process exits; exclusive with a RestartPolicy other than none |', '| GET /containers/{id_or_name}/json | size (boolean, default false) | none | 200 inspect object | 200, 404, 500 |', '404 no such container', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |'],
  since: '1.25',
  tags: ['state'],
  covers: ['1:POST /containers/create:body:HostConfig.AutoRemove', '1:version-rule:1.25:auto-remove'],
}, async (context) => {
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], HostConfig: { AutoRemove: true } });
  await startContainer(context, id);
  const status = await until(
    async () => (await context.engine.get(`/containers/${id}/json`)).status,
    (seen) => seen === 404,
    { what: 'GET /containers/{id}/json to answer 404 after the exit' },
  );
  context.expect(status, 'GET /containers/{id}/json status after the exit').toBe(404);
});

check('containers.create.auto-remove-restart-policy', {
  title: 'AutoRemove with a restart policy other than none is refused (400, or 409 as a conflict); with the empty policy it is accepted',
  spec: '1 §2.3, §4.1, §7.2',
  quote: ['| AutoRemove | boolean | [1.25] remove container when its process exits; exclusive with a RestartPolicy other than none |', '| RestartPolicy | object | Name: empty (default, no restart), always, on-failure, unless-stopped (unless-stopped from 1.21); MaximumRetryCount (integer) applies to on-failure |', '| POST /containers/create | name (must match `/?[a-zA-Z0-9_-]+`) | creation body (2.3) | 201 {Id, Warnings} | 201, 400, 404, 406, 409, 500 |', '400 bad parameter', '409 conflict'],
  since: '1.25',
  tags: ['error'],
  covers: [
    '1:POST /containers/create:body:HostConfig.AutoRemove',
    '1:POST /containers/create:body:HostConfig.RestartPolicy',
    '1:POST /containers/create:status:400',
  ],
}, async (context) => {
  const outcomes: Record<string, string> = {};
  for (const policy of ['always', 'on-failure', 'unless-stopped', '']) {
    const { status } = await createContainer(context, { Image: context.session.fixtureImage, Cmd: ['true'], HostConfig: { AutoRemove: true, RestartPolicy: { Name: policy } } });
    // "Exclusive": a bad parameter (400) or a conflict (409), both of the create row.
    outcomes[policy] = status === 201 ? 'created' : status === 400 || status === 409 ? 'refused' : `status ${status}`;
  }
  context.expect(outcomes, `create outcome per RestartPolicy.Name with AutoRemove: ${JSON.stringify(outcomes)}`).toEqual({
    always: 'refused',
    'on-failure': 'refused',
    'unless-stopped': 'refused',
    '': 'created',
  });
});
