/**
 * Test helper: an EngineModel that manages a one-node swarm, on a manual clock, with sequential ids,
 * and a spec builder for services of the synthetic busybox.
 */
import { EngineModel } from '../../../reference/engine/model/engine-model.ts';
import type { RestartCondition, ServiceSpec } from '../../../reference/engine/model/swarm/service-spec.ts';
import { ManualScheduler } from '../../../reference/engine/process/index.ts';

export interface SwarmEngine {
  model: EngineModel;
  /** moves the clock on by `ms`, letting processes, restarts and stops happen */
  advance(ms?: number): Promise<void>;
}

export function swarmEngine(swarm = true): SwarmEngine {
  const clock = new ManualScheduler();
  let next = 0;
  let nextSwarm = 0;
  const model = new EngineModel({
    scheduler: clock,
    swarm,
    ids: () => (++next).toString(16).padStart(64, 'c'),
    swarmIds: () => (++nextSwarm).toString(36).padStart(25, 's'),
  });
  return { model, advance: (ms = 0) => clock.advance(ms) };
}

export interface SpecOptions {
  name?: string;
  command?: string[];
  replicas?: number;
  global?: boolean;
  condition?: RestartCondition;
  labels?: Record<string, string>;
}

/** 1 s restart delay and 1 s stop grace period: long enough to tell apart from "at once". */
export const DELAY_MS = 1_000;

export function spec(options: SpecOptions = {}): ServiceSpec {
  return {
    Name: options.name ?? 'web',
    Labels: options.labels ?? {},
    TaskTemplate: {
      ContainerSpec: { Image: 'busybox', Command: options.command ?? ['sleep', '300'], StopGracePeriod: DELAY_MS * 1e6 },
      RestartPolicy: { Condition: options.condition ?? 'none', Delay: DELAY_MS * 1e6 },
    },
    Mode: options.global ? { Global: {} } : { Replicated: { Replicas: options.replicas ?? 1 } },
  };
}
