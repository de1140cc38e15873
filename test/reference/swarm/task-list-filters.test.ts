/**
 * The task list filters in the model, each with a value that matches and one that does not: id and
 * name by prefix, service and node by id, label by the service's labels, desired-state; a desired
 * state dockerd does not know is its plain error.
 */
import { describe, expect, test } from 'vitest';
import { EngineError } from '../../../reference/engine/model/common/errors.ts';
import type { TaskListFilters } from '../../../reference/engine/model/swarm/task-list-filters.ts';
import { spec, swarmEngine } from './swarm-engine.ts';

async function scene() {
  const { model, advance } = swarmEngine();
  const web = model.services.create(spec({ name: 'web', labels: { tier: 'front' } }));
  const job = model.services.create(spec({ name: 'job', command: ['true'] }));
  await advance();
  const [running] = model.tasks.list({ service: [web.id] });
  const [ended] = model.tasks.list({ service: [job.id] });
  if (!running || !ended) throw new Error('setup: the services made no tasks');
  const listed = (filters: TaskListFilters) => model.tasks.list(filters).map((task) => task.id);
  return { model, web, job, running, ended, listed };
}

type Scene = Awaited<ReturnType<typeof scene>>;

describe('task filters', () => {
  test.each([
    ['id', (s: Scene) => ({ id: [s.running.id.slice(0, 8)] }), (s: Scene) => ({ id: [s.ended.id] })],
    ['name', () => ({ name: ['web'] }), () => ({ name: ['api'] })],
    ['service', (s: Scene) => ({ service: [s.web.id] }), (s: Scene) => ({ service: [s.job.id] })],
    ['node', (s: Scene) => ({ node: [s.model.swarm.node.id] }), () => ({ node: ['elsewhere'] })],
    ['label', () => ({ label: ['tier=front'] }), () => ({ label: ['tier=back'] })],
    ['desired-state running', () => ({ 'desired-state': ['running'] }), () => ({ 'desired-state': ['accepted'] })],
  ] as const)('%s lists the task it names and not one it does not', async (_, matching, other) => {
    const s = await scene();
    expect(s.listed(matching(s))).toContain(s.running.id);
    expect(s.listed(other(s))).not.toContain(s.running.id);
  });

  test('desired-state shutdown lists the task that has exited and not the running one', async () => {
    const s = await scene();
    expect(s.listed({ 'desired-state': ['shutdown'] })).toEqual([s.ended.id]);
  });

  test('a desired state other than running, shutdown or accepted is dockerd\'s plain error', async () => {
    const s = await scene();
    expect(() => s.listed({ 'desired-state': ['paused'] })).toThrow(new EngineError("Invalid desired-state filter: 'paused'"));
  });
});
