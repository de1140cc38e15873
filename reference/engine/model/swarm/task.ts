/**
 * A task (spec/2 §2.8): one run of a service's template on the node, in a slot of a replicated
 * service or as the global service's one task. Its container does the running; the task records
 * how that went (Status) and what the orchestrator wants of it (DesiredState).
 */
import type { Container } from '../containers/container.ts';
import type { Service } from './service.ts';
import type { TaskSpec } from './service-spec.ts';
import type { SwarmObjectMeta } from './swarm-cluster.ts';

/** The states a task of the reference passes through (swarmkit has more before `running`; `preparing` is a pull of an image the engine lacks). */
export type TaskState = 'preparing' | 'running' | 'complete' | 'failed' | 'rejected' | 'shutdown';

/** What the orchestrator wants: running, stopped for good (`shutdown`), or gone with its service or slot (`remove`). */
export type DesiredState = 'running' | 'shutdown' | 'remove';

export interface TaskStatus {
  timestamp: Date;
  state: TaskState;
  message: string;
  /** why the task failed or was rejected */
  err?: string;
  containerId?: string;
  pid: number;
  exitCode: number;
}

export class Task {
  desiredState: DesiredState = 'running';
  container: Container | undefined;

  constructor(
    readonly meta: SwarmObjectMeta,
    readonly service: Service,
    /** the template the task was made from: an update of the service does not change it */
    readonly spec: TaskSpec,
    /** its slot, 1 up, for a replicated service; undefined for a global one */
    readonly slot: number | undefined,
    readonly nodeId: string,
    public status: TaskStatus,
  ) {}

  get id(): string {
    return this.meta.id;
  }

  /** swarmkit's task name, `service.slot.id` (`service.node.id` for a global service): its container's name and what the name filter matches. */
  get name(): string {
    return `${this.service.name}.${this.slot ?? this.nodeId}.${this.id}`;
  }
}
