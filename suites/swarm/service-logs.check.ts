/**
 * GET /services/{id}/logs (Docker's, API 1.29, which dockerd 20.10 serves at every version prefix, 1.25
 * included; the spec's service rows have no logs, so every check here is docker-level): the logs of
 * the service's tasks in multiplexed frames, stdout and stderr apart; with details, each line carries
 * the task's node, service and task ids in front; asking for neither stream is refused with 500.
 */
import { check, type CheckContext, type CheckMeta } from '../../harness/check.ts';
import { decodeFrames } from '../../harness/streams/frame-decoder.ts';
import { until } from '../../harness/wait-until.ts';
import { ownService, runningTasks } from './swarm-steps.ts';

const LOGS: Omit<CheckMeta, 'title'> = { spec: '2 §4.6', since: '1.25', tags: ['state'], requires: ['swarm'], level: 'docker', seen: 'dockerd 20.10.24' };
const TALKER = ['sh', '-c', 'echo to-stdout; echo to-stderr >&2; sleep 300'];

interface ServiceLogs {
  status: number;
  stdout: string;
  stderr: string;
}

/** GET /services/{id}/logs with `query`, asked again until `ready` holds of the answer (the task's output comes a little after it starts). */
async function serviceLogs(context: CheckContext, service: string, query: Record<string, string>, ready: (logs: ServiceLogs) => boolean): Promise<ServiceLogs> {
  const read = async (): Promise<ServiceLogs> => {
    const res = await context.engine.get(`/services/${service}/logs`, { query });
    const streams = res.status === 200 ? decodeFrames(res.body) : undefined;
    return { status: res.status, stdout: streams?.stdout.toString('utf8') ?? '', stderr: streams?.stderr.toString('utf8') ?? '' };
  };
  return until(read, (logs) => logs.status !== 200 || ready(logs), { what: `the log of service ${service}` });
}

check('swarm.services.logs', { ...LOGS, title: 'GET /services/{id}/logs gives what the service\'s task wrote, stdout and stderr in their own frames' }, async (context) => {
  const service = await ownService(context, { command: TALKER });
  await runningTasks(context, service, 1);
  const seen = await serviceLogs(context, service, { stdout: '1', stderr: '1' }, (logs) => logs.stdout !== '' && logs.stderr !== '');
  context.expect(seen, `GET /services/${service}/logs?stdout=1&stderr=1`).toEqual({ status: 200, stdout: 'to-stdout\n', stderr: 'to-stderr\n' });
});

check('swarm.services.logs-details', { ...LOGS, title: 'GET /services/{id}/logs with details puts the task\'s node, service and task ids in front of each line' }, async (context) => {
  const service = await ownService(context, { command: TALKER });
  const [task] = await runningTasks(context, service, 1);
  const seen = await serviceLogs(context, service, { stdout: '1', details: '1' }, (logs) => logs.stdout !== '');
  context.expect(seen, `GET /services/${service}/logs?stdout=1&details=1`).toEqual({ status: 200, stdout: `com.docker.swarm.node.id=${task?.NodeID},com.docker.swarm.service.id=${service},com.docker.swarm.task.id=${task?.ID} to-stdout\n`, stderr: '' });
});

check('swarm.services.logs-no-stream', { ...LOGS, tags: ['error'], title: 'GET /services/{id}/logs asking for neither stdout nor stderr is refused with 500' }, async (context) => {
  const service = await ownService(context, { command: TALKER });
  const res = await context.engine.get(`/services/${service}/logs`);
  context.expect(res.status, `GET /services/${service}/logs: ${res.describe()}`).toBe(500);
});
