/**
 * Tasks in the model: one per replica (or one for a global service) running a container with
 * dockerd's swarm labels; the restart conditions none, on-failure and any when a container exits;
 * the history a slot keeps; scaling down and removal taking tasks and containers with them.
 */
import { describe, expect, test, vi } from 'vitest';
import type { EngineModel } from '../../../reference/engine/model/engine-model.ts';
import type { Service } from '../../../reference/engine/model/swarm/service.ts';
import { TASK_HISTORY_LIMIT } from '../../../reference/engine/model/swarm/task-store.ts';
import { DELAY_MS, spec, swarmEngine } from './swarm-engine.ts';

/** Each task of the service as `slot state/desired`, oldest first. */
function taskStates(model: EngineModel, service: Service): string[] {
  return model.tasks.list({ service: [service.id] }).map((task) => `${task.slot ?? 'global'} ${task.status.state}/${task.desiredState}`);
}

describe('tasks run containers', () => {
  test('two replicas run two tasks in slots 1 and 2, each in a running container named and labelled after it', async () => {
    const { model, advance } = swarmEngine();
    const service = model.services.create(spec({ name: 'web', replicas: 2 }));
    await advance();
    expect(taskStates(model, service)).toEqual(['1 running/running', '2 running/running']);
    for (const task of model.tasks.list()) {
      const container = task.container;
      expect({ running: container?.state.Running, name: container?.name, task: container?.config.Labels['com.docker.swarm.task.id'], service: container?.config.Labels['com.docker.swarm.service.name'] })
        .toEqual({ running: true, name: `/web.${task.slot}.${task.id}`, task: task.id, service: 'web' });
    }
  });

  test('a global service runs one task on the node', async () => {
    const { model, advance } = swarmEngine();
    const service = model.services.create(spec({ global: true }));
    await advance();
    expect(model.tasks.list().map((task) => [task.slot, task.nodeId, task.status.state])).toEqual([[undefined, model.swarm.node.id, 'running']]);
    expect(taskStates(model, service)).toEqual(['global running/running']);
  });

  test('a task whose image is missing is preparing while the pull goes, and rejected when it fails', async () => {
    const { model } = swarmEngine();
    const missing = spec();
    missing.TaskTemplate.ContainerSpec.Image = 'nowhere:1';
    model.services.create(missing);
    expect(model.tasks.list().map((task) => task.status.state)).toEqual(['preparing']);
    await vi.waitFor(() => expect(model.tasks.list().map((task) => [task.status.state, task.desiredState])).toEqual([['rejected', 'shutdown']]));
    expect(model.tasks.list()[0]?.status.err).toContain('registry-1.docker.io');
  });
});

describe('restart conditions', () => {
  test('none: an exited task is complete and wanted shut down, and nothing takes its slot', async () => {
    const { model, advance } = swarmEngine();
    const service = model.services.create(spec({ command: ['true'], condition: 'none' }));
    await advance(10 * DELAY_MS);
    expect(taskStates(model, service)).toEqual(['1 complete/shutdown']);
  });

  test('any: a new task takes the slot after the restart delay, not before', async () => {
    const { model, advance } = swarmEngine();
    const service = model.services.create(spec({ command: ['sleep', '1'], condition: 'any' }));
    await advance(1000);
    expect(taskStates(model, service)).toEqual(['1 complete/shutdown']);
    await advance(DELAY_MS - 1);
    expect(taskStates(model, service)).toEqual(['1 complete/shutdown']);
    await advance(1);
    expect(taskStates(model, service)).toEqual(['1 complete/shutdown', '1 running/running']);
  });

  test('on-failure: a non-zero exit fails the task and is followed by a new one; an exit 0 is not', async () => {
    const { model, advance } = swarmEngine();
    const failing = model.services.create(spec({ name: 'failing', command: ['sh', '-c', 'sleep 1; exit 3'], condition: 'on-failure' }));
    const finishing = model.services.create(spec({ name: 'finishing', command: ['sleep', '1'], condition: 'on-failure' }));
    await advance(1000 + DELAY_MS);
    expect(taskStates(model, failing)).toEqual(['1 failed/shutdown', '1 running/running']);
    expect(model.tasks.list({ service: [failing.id] })[0]?.status).toMatchObject({ err: 'task: non-zero exit (3)', exitCode: 3 });
    expect(taskStates(model, finishing)).toEqual(['1 complete/shutdown']);
  });

  test('a reset calls off the restarts the policy has scheduled', async () => {
    const { model, advance } = swarmEngine();
    model.services.create(spec({ command: ['true'], condition: 'any' }));
    await advance();
    model.reset();
    await advance(3 * DELAY_MS);
    expect({ tasks: model.tasks.list(), containers: [...model.containers] }).toEqual({ tasks: [], containers: [] });
  });

  test('a slot keeps its last five tasks; older ones go with their containers', async () => {
    const { model, advance } = swarmEngine();
    const service = model.services.create(spec({ command: ['true'], condition: 'any' }));
    for (let round = 0; round < 8; round++) await advance(DELAY_MS);
    const tasks = model.tasks.list({ service: [service.id] });
    expect(tasks.length).toBe(TASK_HISTORY_LIMIT);
    expect([...model.containers].length).toBe(TASK_HISTORY_LIMIT);
  });
});

describe('scaling and removal', () => {
  test('scaling down removes the task of the slot no longer wanted, and its container once stopped within the grace period', async () => {
    const { model, advance } = swarmEngine();
    const service = model.services.create(spec({ replicas: 2 }));
    await advance();
    model.services.update(service, service.meta.versionIndex, spec({ replicas: 1 }));
    expect(taskStates(model, service)).toEqual(['1 running/running']);
    expect([...model.containers].length).toBe(2);
    await advance(DELAY_MS);
    expect([...model.containers].length).toBe(1);
  });

  test('a new task template replaces the running tasks; new labels alone do not', async () => {
    const { model, advance } = swarmEngine();
    const service = model.services.create(spec());
    await advance();
    model.services.update(service, service.meta.versionIndex, spec({ labels: { a: '1' } }));
    expect(taskStates(model, service)).toEqual(['1 running/running']);
    model.services.update(service, service.meta.versionIndex, spec({ command: ['sleep', '400'] }));
    await advance(DELAY_MS);
    expect(taskStates(model, service)).toEqual(['1 shutdown/shutdown', '1 running/running']);
  });

  test('a removed service takes its tasks at once and its containers once they stop', async () => {
    const { model, advance } = swarmEngine();
    const service = model.services.create(spec({ replicas: 2 }));
    await advance();
    model.services.remove(service);
    expect(model.tasks.list()).toEqual([]);
    await advance(DELAY_MS);
    expect([...model.containers]).toEqual([]);
  });
});
