/**
 * Healthchecks (Docker's since API 1.24; the spec does not describe Config.Healthcheck or
 * State.Health): the test runs in the container every Interval; State.Health tells the status,
 * the failing streak and the last probes; each change of status is a `health_status` event; the
 * container list filters by health. Short intervals keep each check to a few seconds.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { until } from '../../harness/wait-until.ts';
import { eventsDuring } from '../daemon-events.ts';
import { inspectContainer, startContainer, startedContainer } from '../container-steps.ts';

interface Health {
  Status: string;
  FailingStreak: number;
  Log: { Start: string; End: string; ExitCode: number; Output: string }[] | null;
}

interface Inspected {
  Config: { Healthcheck?: Record<string, unknown> };
  State: { Health?: Health };
}

const DOCKER = { spec: '1 §2.2', level: 'docker', seen: 'dockerd 20.10.24', since: '1.24' } as const;
/** 300 ms between probes, in nanoseconds as the API counts them */
const INTERVAL_NS = 300_000_000;

/** A running container whose healthcheck runs `script` with sh every 300 ms, unhealthy after 2 failures. */
function healthChecked(context: CheckContext, script: string, labels: Record<string, string> = {}): Promise<string> {
  return startedContainer(context, { Cmd: ['sleep', '60'], Labels: labels, Healthcheck: { Test: ['CMD-SHELL', script], Interval: INTERVAL_NS, Retries: 2 } });
}

/** Inspects until State.Health has `status`; answers that Health. */
function healthReaching(context: CheckContext, id: string, status: string): Promise<Health | undefined> {
  return until(async () => (await inspectContainer<Inspected>(context, id)).State.Health, (health) => health?.Status === status, { what: `State.Health.Status ${status}`, timeoutMs: 10_000 });
}

/** The ids GET /containers/json lists with these filters. */
async function listedIds({ engine, expect }: CheckContext, filters: Record<string, string[]>): Promise<string[]> {
  const res = await engine.get('/containers/json', { query: { all: '1', filters: JSON.stringify(filters) } });
  expect(res.status, `GET /containers/json with ${JSON.stringify(filters)}: ${res.describe()}`).toBe(200);
  return res.json<{ Id: string }[]>().map((container) => container.Id);
}

check('containers.health.config', {
  ...DOCKER,
  title: 'Config.Healthcheck {Test, Interval, Timeout, Retries} given at create is shown back in inspect Config',
  tags: ['state'],
}, async (context) => {
  const healthcheck = { Test: ['CMD', 'true'], Interval: 2_000_000_000, Timeout: 1_000_000_000, Retries: 4 };
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], Healthcheck: healthcheck });
  const { Config } = await inspectContainer<Inspected>(context, id);
  context.expect(Config.Healthcheck, 'inspect Config.Healthcheck').toEqual(healthcheck);
});

check('containers.health.unhealthy', {
  ...DOCKER,
  title: 'a test that keeps failing makes State.Health unhealthy after Retries probes, with the probes (ExitCode, Output) in its Log, and the health filter lists it',
  tags: ['state'],
}, async (context) => {
  const id = await healthChecked(context, 'echo probed; exit 3');
  const health = await healthReaching(context, id, 'unhealthy');
  context.expect(health?.FailingStreak, 'FailingStreak').toBeGreaterThanOrEqual(2);
  const last = health?.Log?.at(-1);
  context.expect({ ExitCode: last?.ExitCode, Output: last?.Output }, `the last Log entry of ${JSON.stringify(health?.Log)}`).toEqual({ ExitCode: 3, Output: 'probed\n' });
  context.expect(typeof last?.Start === 'string' && typeof last.End === 'string', 'Start and End of the Log entry').toBe(true);
  context.expect(await listedIds(context, { health: ['unhealthy'], label: [`shipshape.run=${context.make.runId}`] }), 'GET /containers/json?filters={"health":["unhealthy"]}').toContain(id);
});

check('containers.health.healthy-event', {
  ...DOCKER,
  title: 'a container whose test succeeds goes from starting to healthy, with a `health_status: healthy` event',
  tags: ['state'],
}, async (context) => {
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['sleep', '60'], Healthcheck: { Test: ['CMD-SHELL', 'exit 0'], Interval: INTERVAL_NS, Retries: 2 } });
  const events = await eventsDuring(context, { container: [id] }, () => startContainer(context, id), (event) => event.Action?.startsWith('health_status') === true);
  context.expect(events.find((event) => event.Action?.startsWith('health_status'))?.Action, 'the health_status event').toBe('health_status: healthy');
  context.expect((await inspectContainer<Inspected>(context, id)).State.Health?.Status, 'State.Health.Status').toBe('healthy');
});

check('containers.health.none', {
  ...DOCKER,
  title: 'a container created with Healthcheck {Test: ["NONE"]} runs no healthcheck: no State.Health, and the health filter counts it as none',
  tags: ['state'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['sleep', '60'], Healthcheck: { Test: ['NONE'] } });
  context.expect((await inspectContainer<Inspected>(context, id)).State.Health, 'inspect State.Health').toBeUndefined();
  context.expect(await listedIds(context, { health: ['none'], label: [`shipshape.run=${context.make.runId}`] }), 'GET /containers/json?filters={"health":["none"]}').toContain(id);
});

check('containers.health.stopped-unhealthy', {
  ...DOCKER,
  title: 'once the container of a healthy healthcheck stops, its State.Health is unhealthy (dockerd\'s closed monitor)',
  tags: ['state'],
}, async (context) => {
  const id = await healthChecked(context, 'exit 0');
  await healthReaching(context, id, 'healthy');
  const res = await context.engine.post(`/containers/${id}/stop`, { query: { t: '0' } });
  context.expect(res.status, 'POST /containers/{id}/stop status').toBe(204);
  context.expect((await inspectContainer<Inspected>(context, id)).State.Health?.Status, 'State.Health.Status after the stop').toBe('unhealthy');
});
