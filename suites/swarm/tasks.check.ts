/**
 * Tasks (spec/2 §2.8, §3, §4.6): GET /tasks/{id} and its 404, and every task filter with a case that
 * matches and one that must not (spec level); dockerd's slots and task containers, global mode's one
 * task on the node, the restart conditions seen as new tasks, and /info counting the tasks'
 * containers (docker level: the spec names global mode and the restart conditions, not what they do).
 */
import { check, type CheckContext, type CheckMeta } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { inspectContainer } from '../container-steps.ts';
import { firstTask, inspectService, isState, listTasks, ownNodeId, ownService, runningTasks, tasksOf, tasksUntil, type ServiceOptions, type TaskView } from './swarm-steps.ts';

const TASKS: Omit<CheckMeta, 'title'> = { spec: '2 §4.6', since: '1.24', tags: ['state'], requires: ['swarm'] };

check('swarm.tasks.replicas-running', { ...TASKS, level: 'docker', seen: 'dockerd 20.10.24', title: 'A service of 2 replicas runs 2 tasks, each wanted running, in slots 1 and 2, in a running container labelled with its task', spec: '2 §2.8', covers: ['2:GET /tasks', '2:POST /services/create:body:Mode'] }, async (context) => {
  const id = await ownService(context, { replicas: 2 });
  const tasks = await runningTasks(context, id, 2);
  context.expect(tasks.map((task) => task.Slot).sort(), 'the slots of the tasks').toEqual([1, 2]);
  for (const task of tasks) {
    const container = await inspectContainer<{ State: { Running: boolean }; Config: { Labels: Record<string, string> } }>(context, task.Status.ContainerStatus?.ContainerID ?? '');
    context.expect({ running: container.State.Running, task: container.Config.Labels['com.docker.swarm.task.id'] }, `the container of task ${task.ID}`).toEqual({ running: true, task: task.ID });
  }
});

check('swarm.tasks.global-mode', { ...TASKS, level: 'docker', seen: 'dockerd 20.10.24', title: 'A global service runs one task, on the node /info names', spec: '2 §2.7', quote: ['Mode (replicated or global, default replicated)'], covers: ['2:POST /services/create:body:Mode'] }, async (context) => {
  const id = await ownService(context, { global: true });
  const [task] = await runningTasks(context, id, 1);
  context.expect(task?.NodeID, 'the NodeID of the global task').toBe(await ownNodeId(context));
});

check('swarm.tasks.inspect', { ...TASKS, spec: '2 §4.6, §2.8', quote: ['| GET /tasks/{task id} | | none | 200 task | 200, 404 (unknown task), 500 |', 'Fields: ID, Version {Index}, CreatedAt, UpdatedAt, Name, Spec (as a task template), ServiceID'], title: 'GET /tasks/{id} is the task the list gives', covers: ['2:GET /tasks/{task id}', '2:GET /tasks/{task id}:status:200'] }, async (context) => {
  const id = await ownService(context);
  const task = await firstTask(context, id);
  const res = await context.engine.get(`/tasks/${task.ID}`);
  context.expect(res.status, 'GET /tasks/{id} status').toBe(200);
  const inspected = res.json<TaskView>();
  context.expect({ id: inspected.ID, service: inspected.ServiceID }, 'the inspected task').toEqual({ id: task.ID, service: id });
});

check('swarm.tasks.not-found', { ...TASKS, spec: '2 §4.6, 1 §7.1, §7.2', quote: ['| GET /tasks/{task id} | | none | 200 task | 200, 404 (unknown task), 500 |', 'Errors use standard HTTP status codes. From 1.24 the response body is JSON: an object with a single string field `message`.', '404 no such container, image, exec instance, volume, network, service or task'], title: 'GET /tasks/{id} of an unknown task answers 404', tags: ['error'], covers: ['2:GET /tasks/{task id}:status:404'] }, async (context) => {
  const res = await context.engine.get(`/tasks/${context.make.uniqueName('none')}`);
  context.expect(res.status, 'GET /tasks/{id} status for an unknown task').toBe(404);
  expectErrorBodyOfVersion(context, res);
});

/** A task of a service that runs `sleep 300`, and one of a service whose only task has exited and is wanted shut down. */
interface FilterScene {
  serviceId: string;
  serviceName: string;
  endedName: string;
  label: string;
  running: TaskView;
  ended: TaskView;
  nodeId: string;
}

async function filterScene(context: CheckContext): Promise<FilterScene> {
  const label = context.make.uniqueName('label');
  // the label on the service and on its task template: the spec does not say which labels a task carries
  const serviceId = await ownService(context, { labels: { 'shipshape.check': label }, containerLabels: { 'shipshape.check': label } });
  const endedId = await ownService(context, { command: ['true'], condition: 'none' });
  const [running] = await runningTasks(context, serviceId, 1);
  const [ended] = await tasksUntil(context, endedId, (tasks) => tasks.some((task) => isState(task.DesiredState, 'shutdown')), 'the task of `true` to be wanted shut down');
  const nameOf = async (id: string) => (await inspectService(context, id)).Spec.Name;
  // the node a task names (spec/2 §2.8 NodeID), not GET /info's Swarm section, which spec/2 §2.5 does not list
  return { serviceId, serviceName: await nameOf(serviceId), endedName: await nameOf(endedId), label, running: running as TaskView, ended: ended as TaskView, nodeId: (running as TaskView).NodeID };
}

/**
 * Each task filter (spec/2 §4.6): a value that lists `listed` of the scene, one that must not list
 * `unlisted`. A value naming no service or node may be refused (dockerd: 404) rather than list nothing.
 */
const TASK_FILTERS: { filter: string; name: string; matching: (scene: FilterScene) => [string, TaskView]; other: (scene: FilterScene, context: CheckContext) => [string, TaskView]; otherMayFail?: boolean; docker?: boolean }[] = [
  { filter: 'id', name: 'id', matching: (s) => [s.running.ID, s.running], other: (s) => [s.ended.ID, s.running] },
  // dockerd's tasks have no Name (spec/2 §2.8 lists one): it matches the name filter against `service.slot.id` by prefix
  { filter: 'name', name: 'name', matching: (s) => [s.serviceName, s.running], other: (s, c) => [c.make.uniqueName('other'), s.running], docker: true },
  { filter: 'service', name: 'service', matching: (s) => [s.serviceName, s.running], other: (s) => [s.endedName, s.running] },
  { filter: 'node', name: 'node', matching: (s) => [s.nodeId, s.running], other: (s, c) => [c.make.uniqueName('node'), s.running], otherMayFail: true },
  { filter: 'label', name: 'label', matching: (s) => [`shipshape.check=${s.label}`, s.running], other: (s, c) => [`shipshape.check=${c.make.uniqueName('other')}`, s.running] },
  { filter: 'desired-state', name: 'desired-state-running', matching: (s) => ['running', s.running], other: (s) => ['running', s.ended] },
  { filter: 'desired-state', name: 'desired-state-shutdown', matching: (s) => ['shutdown', s.ended], other: (s) => ['shutdown', s.running] },
];

async function isListed(context: CheckContext, filter: string, value: string, task: TaskView, mayFail = false): Promise<boolean> {
  const res = await listTasks(context, { [filter]: [value] });
  if (mayFail && res.status >= 400) return false;
  context.expect(res.status, `GET /tasks?filters={"${filter}":["${value}"]} status`).toBe(200);
  return res.json<TaskView[]>().some((listed) => listed.ID === task.ID);
}

for (const { filter, name, matching, other, otherMayFail, docker } of TASK_FILTERS) {
  check(`swarm.tasks.filter-${name}`, { ...TASKS, spec: '2 §4.6', quote: ['| GET /tasks | filters: id=<task id>, name=<task name>, service=<service name>, node=<node id>, label=key or key=value, desired-state=running or shutdown or accepted | none | 200 array of task | 200, 500 |'], ...(docker && { level: 'docker', seen: 'dockerd 20.10.24' }), title: `GET /tasks?filters={"${filter}":…} lists the task it names and not one it does not`, covers: [`2:GET /tasks:query:filters.${filter}`] }, async (context) => {
    const scene = await filterScene(context);
    const [value, listed] = matching(scene);
    context.expect(await isListed(context, filter, value, listed), `whether ${filter}=${value} lists task ${listed.ID}`).toBe(true);
    const [otherValue, unlisted] = other(scene, context);
    context.expect(await isListed(context, filter, otherValue, unlisted, otherMayFail), `whether ${filter}=${otherValue} lists task ${unlisted.ID}`).toBe(false);
  });
}

check('swarm.tasks.filter-desired-state-accepted', { ...TASKS, spec: '2 §4.6, §3', quote: ['| GET /tasks | filters: id=<task id>, name=<task name>, service=<service name>, node=<node id>, label=key or key=value, desired-state=running or shutdown or accepted | none | 200 array of task | 200, 500 |', 'The task list filter desired-state accepts running, shutdown, accepted.'], title: 'GET /tasks?filters={"desired-state":["accepted"]} is accepted and lists no task wanted running', covers: ['2:GET /tasks:query:filters.desired-state'] }, async (context) => {
  const id = await ownService(context);
  const [running] = await runningTasks(context, id, 1);
  context.expect(await isListed(context, 'desired-state', 'accepted', running as TaskView), 'whether desired-state=accepted lists a task wanted running').toBe(false);
});

/**
 * Two services side by side with the same restart delay, the one that must stay made first: once the
 * other has restarted twice, the first had as long to restart, and did not.
 */
async function restartPair(context: CheckContext, restarting: ServiceOptions, staying: ServiceOptions): Promise<{ restarted: TaskView[]; stayed: TaskView[] }> {
  const stayingId = await ownService(context, staying);
  const restartingId = await ownService(context, restarting);
  await tasksUntil(context, stayingId, (tasks) => tasks.some((task) => isState(task.DesiredState, 'shutdown')), 'the task of the service that must not restart to end');
  const restarted = await tasksUntil(context, restartingId, (tasks) => tasks.length >= 3, `three tasks of the service with restart condition ${restarting.condition ?? ''}`);
  return { restarted, stayed: await tasksOf(context, stayingId) };
}

check('swarm.tasks.restart-none-vs-any', { ...TASKS, level: 'docker', seen: 'dockerd 20.10.24', title: 'A task whose container exits is replaced under restart condition any, not under none (its one task wanted shut down)', spec: '2 §2.7', quote: ['RestartPolicy {Condition (none, on-failure, any), Delay, Attempts (default 0, ignored), Window (default 0, unbounded)}'], covers: ['2:POST /services/create:body:TaskTemplate.RestartPolicy.Condition'] }, async (context) => {
  const { restarted, stayed } = await restartPair(context, { command: ['true'], condition: 'any' }, { command: ['true'], condition: 'none' });
  context.expect(restarted.length, 'tasks of the service with condition any').toBeGreaterThanOrEqual(2);
  // one task, ended and wanted shut down; the name of the state it ended in (dockerd: complete) is not the spec's
  context.expect(stayed.map((task) => isState(task.DesiredState, 'shutdown')), `the tasks of the service with condition none: ${JSON.stringify(stayed.map((task) => task.Status.State))}`).toEqual([true]);
});

check('swarm.tasks.restart-on-failure', { ...TASKS, level: 'docker', seen: 'dockerd 20.10.24', title: 'Under restart condition on-failure a task that exits non-zero is replaced (its state failed), one that exits 0 is not', spec: '2 §2.7, §3', quote: ['RestartPolicy {Condition (none, on-failure, any), Delay, Attempts (default 0, ignored), Window (default 0, unbounded)}', 'Task Status.State value seen: FAILED.'], covers: ['2:POST /services/create:body:TaskTemplate.RestartPolicy.Condition'] }, async (context) => {
  const { restarted, stayed } = await restartPair(context, { command: ['false'], condition: 'on-failure' }, { command: ['true'], condition: 'on-failure' });
  const ended = restarted.filter((task) => isState(task.DesiredState, 'shutdown'));
  context.expect(ended.some((task) => isState(task.Status.State, 'failed')), `the states of the ended tasks: ${JSON.stringify(ended.map((task) => task.Status.State))}`).toBe(true);
  context.expect(stayed.map((task) => isState(task.DesiredState, 'shutdown') && !isState(task.Status.State, 'failed')), `the tasks of the service whose container exits 0: ${JSON.stringify(stayed.map((task) => task.Status.State))}`).toEqual([true]);
});

check('swarm.info.counts-tasks', { ...TASKS, level: 'docker', seen: 'dockerd 20.10.24', title: 'While 2 tasks run, /info counts their containers as running and the counts add up', spec: '2 §2.5', quote: ['Fields: Architecture, ClusterStore, CgroupDriver (cgroupfs or systemd), Containers, ContainersRunning, ContainersStopped, ContainersPaused'], covers: ['2:GET /info'] }, async (context) => {
  const id = await ownService(context, { replicas: 2 });
  await runningTasks(context, id, 2);
  const res = await context.engine.get('/info');
  context.expect(res.status, 'GET /info status').toBe(200);
  const info = res.json<{ Containers: number; ContainersRunning: number; ContainersPaused: number; ContainersStopped: number }>();
  // Other checks' containers come and go meanwhile on a live target: only this check's lower bound is safe.
  context.expect(info.ContainersRunning, 'ContainersRunning').toBeGreaterThanOrEqual(2);
  context.expect(info.ContainersRunning + info.ContainersPaused + info.ContainersStopped, 'Running + Paused + Stopped').toBe(info.Containers);
});
