/**
 * The swarm's tasks: the ones running, and the history of each slot that swarmkit keeps (the last
 * five tasks of a slot, TaskHistoryRetentionLimit) until a newer one pushes the oldest out.
 */
import { NotFoundError } from '../common/errors.ts';
import type { SwarmCluster } from './swarm-cluster.ts';
import { checkDesiredStates, matchesTaskFilters, type TaskListFilters } from './task-list-filters.ts';
import type { Service } from './service.ts';
import type { Task } from './task.ts';

/** swarmkit's default TaskHistoryRetentionLimit. */
export const TASK_HISTORY_LIMIT = 5;

export class TaskStore {
  private tasks: Task[] = [];

  constructor(private readonly cluster: SwarmCluster) {}

  add(task: Task): void {
    this.tasks.push(task);
  }

  delete(task: Task): void {
    this.tasks = this.tasks.filter((held) => held !== task);
  }

  /** By full id, then unique id prefix. */
  find(reference: string): Task {
    this.cluster.requireManager();
    const found = this.tasks.find((task) => task.id === reference) ?? unique(this.tasks.filter((task) => task.id.startsWith(reference)));
    if (!found || reference === '') throw new NotFoundError(`task ${reference} not found`);
    return found;
  }

  list(filters: TaskListFilters = {}): Task[] {
    this.cluster.requireManager();
    checkDesiredStates(filters['desired-state']);
    return this.tasks.filter((task) => matchesTaskFilters(task, filters));
  }

  ofAll(): Task[] {
    return [...this.tasks];
  }

  ofService(service: Service): Task[] {
    return this.tasks.filter((task) => task.service === service);
  }

  /** The tasks of the service's slot (of its one global task), oldest first. */
  inSlot(service: Service, slot: number | undefined): Task[] {
    return this.tasks.filter((task) => task.service === service && task.slot === slot);
  }

  /** The tasks of a slot beyond its history limit, oldest first, that are no longer wanted running. */
  expired(service: Service, slot: number | undefined): Task[] {
    const ended = this.inSlot(service, slot).filter((task) => task.desiredState !== 'running');
    const running = this.inSlot(service, slot).length - ended.length;
    return ended.slice(0, Math.max(0, ended.length + running - TASK_HISTORY_LIMIT));
  }

  /** Forgets every task; returns them. */
  clear(): Task[] {
    const held = this.tasks;
    this.tasks = [];
    return held;
  }
}

function unique(tasks: Task[]): Task | undefined {
  return tasks.length === 1 ? tasks[0] : undefined;
}
