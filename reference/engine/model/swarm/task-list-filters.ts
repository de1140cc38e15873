/**
 * The filters of the task list (spec/2 §4.6), as dockerd applies them: id and name by prefix (a
 * task's name is `service.slot.id`), service and node by the ids they were resolved to, label by the
 * service's labels (key or key=value, every one given), desired-state by the state the orchestrator
 * wants. Several values of one filter: any of them.
 */
import { EngineError } from '../common/errors.ts';
import { anyValueHolds } from '../common/filter-values.ts';
import { matchesLabels } from '../common/label-match.ts';
import type { Task } from './task.ts';

export interface TaskListFilters {
  id?: string[];
  name?: string[];
  /** service ids */
  service?: string[];
  /** node ids */
  node?: string[];
  label?: string[];
  'desired-state'?: string[];
}

/** The values dockerd takes for desired-state; anything else is its plain error (500). */
const DESIRED_STATE_VALUES = ['running', 'shutdown', 'accepted'];

export function checkDesiredStates(values: readonly string[] | undefined): void {
  for (const value of values ?? []) {
    if (!DESIRED_STATE_VALUES.includes(value)) throw new EngineError(`Invalid desired-state filter: '${value}'`);
  }
}

export function matchesTaskFilters(task: Task, filters: TaskListFilters): boolean {
  return (
    anyValueHolds(filters.id, (prefix) => task.id.startsWith(prefix)) &&
    anyValueHolds(filters.name, (prefix) => task.name.startsWith(prefix)) &&
    anyValueHolds(filters.service, (id) => task.service.id === id) &&
    anyValueHolds(filters.node, (id) => task.nodeId === id) &&
    matchesLabels(task.service.spec.Labels, filters.label ?? []) &&
    anyValueHolds(filters['desired-state'], (state) => task.desiredState === state)
  );
}
