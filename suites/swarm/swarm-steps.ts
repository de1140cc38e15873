/**
 * Steps the swarm checks take: a service spec that runs the fixture image and stops at once when
 * asked (a short StopGracePeriod: `sleep` as PID 1 ignores SIGTERM, so the default would hold each
 * removal for 10 s), services made through the resource tracker (removed with their task containers
 * after the check), and the waits for tasks to appear and reach a state. Each step asserts the answer
 * it depends on, so a target that cannot take the step fails the check there.
 */
import type { CheckContext } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';
import { removeService } from '../../harness/resources.ts';
import { until } from '../../harness/wait-until.ts';

/** 100 ms: time enough for a TERM trap, short enough to keep removals quick. */
const STOP_GRACE_PERIOD_NS = 100_000_000;
/** Restarts follow at once, so that a check sees the replacement well within its deadline. */
export const RESTART_DELAY_NS = 100_000_000;
/** dockerd pulls nothing here (the fixture image is local), yet a task takes a second or two to run. */
const TASK_TIMEOUT_MS = 20_000;

export interface ServiceView {
  ID: string;
  Version: { Index: number };
  CreatedAt: string;
  UpdatedAt: string;
  Spec: ServiceSpecView;
  PreviousSpec?: ServiceSpecView;
}

export interface ServiceSpecView {
  Name: string;
  Labels?: Record<string, string> | null;
  TaskTemplate: { ContainerSpec: { Image: string; Command?: string[]; Labels?: Record<string, string> | null }; RestartPolicy?: { Condition?: string } };
  Mode: { Replicated?: { Replicas: number }; Global?: object };
}

export interface TaskView {
  ID: string;
  ServiceID: string;
  NodeID: string;
  Slot?: number;
  Status: { State: string; Message?: string; ContainerStatus?: { ContainerID?: string; ExitCode?: number } };
  DesiredState: string;
}

export interface ServiceOptions {
  command?: string[];
  replicas?: number;
  global?: boolean;
  condition?: 'none' | 'on-failure' | 'any';
  labels?: Record<string, string>;
  /** labels of the task template's ContainerSpec */
  containerLabels?: Record<string, string>;
}

/**
 * A service spec's task template: spec/2 §2.7 names it TaskTemplate in the create and update body and
 * Task in the inspect response, so a spec-level check reads either.
 */
export function templateOf(spec: object): { ContainerSpec?: Record<string, unknown> } & Record<string, unknown> | undefined {
  const { TaskTemplate, Task } = spec as { TaskTemplate?: Record<string, unknown>; Task?: Record<string, unknown> };
  return TaskTemplate ?? Task;
}

/** A spec named by the run: the fixture image running `command` (default `sleep 300`), one replica unless told. */
export function serviceSpec({ make, session }: CheckContext, options: ServiceOptions = {}): Record<string, unknown> {
  return {
    Name: make.uniqueName('s'),
    Labels: options.labels ?? {},
    TaskTemplate: {
      ContainerSpec: { Image: session.fixtureImage, Command: options.command ?? ['sleep', '300'], StopGracePeriod: STOP_GRACE_PERIOD_NS, ...(options.containerLabels && { Labels: options.containerLabels }) },
      RestartPolicy: { Condition: options.condition ?? 'none', Delay: RESTART_DELAY_NS },
    },
    Mode: options.global ? { Global: {} } : { Replicated: { Replicas: options.replicas ?? 1 } },
  };
}

/**
 * POST /services/create with `spec` (and `headers`), labelled with the run; a service the target
 * creates is removed (with its task containers) after the check. The answer is returned as it came,
 * refusals included.
 */
export async function createService({ engine, make }: CheckContext, spec: Record<string, unknown>, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const labels = { ...(spec.Labels as Record<string, string> | undefined), ...make.labels };
  const res = await engine.post('/services/create', { json: { ...spec, Labels: labels }, headers });
  if (res.status === 201) {
    const { ID } = res.json<{ ID: string }>();
    make.track(`service ${ID}`, () => removeService(engine, ID));
  }
  return res;
}

/**
 * Creates the service of `spec` and finds it by its name, since the create's answer is "not shown"
 * (spec/2 §4.6); it is removed after the check. Returns its id.
 */
export async function serviceByName(context: CheckContext, spec: Record<string, unknown>): Promise<string> {
  const res = await createService(context, spec);
  const { ID } = await inspectService(context, spec.Name as string);
  if (res.status !== 201) context.make.track(`service ${ID}`, () => removeService(context.engine, ID));
  return ID;
}

/** A service of the check's own, removed after the check; returns its id. */
export function ownService(context: CheckContext, options: ServiceOptions = {}): Promise<string> {
  return serviceByName(context, serviceSpec(context, options));
}

export async function inspectService({ engine, expect }: CheckContext, id: string): Promise<ServiceView> {
  const res = await engine.get(`/services/${id}`);
  expect(res.status, `GET /services/${id} status`).toBe(200);
  return res.json<ServiceView>();
}

/** POST /services/{id}/update at `version` with `spec` (and `headers`), the answer as it came. */
export function updateService({ engine }: CheckContext, id: string, version: number, spec: Record<string, unknown>, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return engine.post(`/services/${id}/update`, { query: { version }, json: spec, headers });
}

/** GET /tasks with `filters` (JSON-encoded), the answer as it came. */
export function listTasks({ engine }: CheckContext, filters: Record<string, string[]>): Promise<ApiResponse> {
  return engine.get('/tasks', { query: { filters: JSON.stringify(filters) } });
}

/**
 * The service's tasks, asserting the list answers: the whole list, narrowed by each task's ServiceID
 * (spec/2 §2.8), since the list's `service` filter takes a service name (spec/2 §4.6) and this step
 * knows the service by id.
 */
export async function tasksOf(context: CheckContext, serviceId: string): Promise<TaskView[]> {
  const res = await context.engine.get('/tasks');
  context.expect(res.status, 'GET /tasks status').toBe(200);
  return res.json<TaskView[]>().filter((task) => task.ServiceID === serviceId);
}

/** Waits until the service's tasks satisfy `accept`; returns them. */
export function tasksUntil(context: CheckContext, serviceId: string, accept: (tasks: TaskView[]) => boolean, what: string): Promise<TaskView[]> {
  return until(() => tasksOf(context, serviceId), accept, { timeoutMs: TASK_TIMEOUT_MS, intervalMs: 200, what });
}

/**
 * Whether a task state is `state`: spec/2 §3 writes them in capitals (FAILED, SHUTDOWN), its
 * desired-state filter in lower case (running, shutdown, accepted), so either case is taken.
 */
export function isState(value: string | undefined, state: string): boolean {
  return value?.toLowerCase() === state;
}

function running(tasks: TaskView[]): TaskView[] {
  return tasks.filter((task) => isState(task.DesiredState, 'running') && isState(task.Status.State, 'running'));
}

/** Waits until `count` tasks of the service run; returns those. */
export async function runningTasks(context: CheckContext, serviceId: string, count: number): Promise<TaskView[]> {
  const tasks = await tasksUntil(context, serviceId, (listed) => running(listed).length === count, `${count} running task(s) of service ${serviceId}`);
  return running(tasks);
}

/** Waits until the one running task of the service is another than `previous` (an update replaced it); returns the running tasks other than it. */
export async function replacingTasks(context: CheckContext, serviceId: string, previous: string | undefined): Promise<TaskView[]> {
  const others = (tasks: TaskView[]) => running(tasks).filter((task) => task.ID !== previous);
  const tasks = await tasksUntil(context, serviceId, (listed) => running(listed).length === 1 && others(listed).length === 1, `a running task of service ${serviceId} other than ${previous ?? 'none'}`);
  return others(tasks);
}

/** Waits until the service has made its first task; returns it. */
export async function firstTask(context: CheckContext, serviceId: string): Promise<TaskView> {
  const tasks = await tasksUntil(context, serviceId, (listed) => listed.length > 0, `a task of service ${serviceId}`);
  return tasks[0] as TaskView;
}

/** The id of the node the target runs as (GET /info's Swarm.NodeID: Docker's; spec/2 §2.5 lists no Swarm section). */
export async function ownNodeId({ engine, expect }: CheckContext): Promise<string> {
  const res = await engine.get('/info');
  expect(res.status, 'GET /info status').toBe(200);
  return res.json<{ Swarm: { NodeID: string } }>().Swarm.NodeID;
}
