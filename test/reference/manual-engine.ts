/**
 * Test helper: an EngineModel on a manual clock (no real sleeps), with sequential ids and a record of
 * the events it publishes.
 */
import type { ContainerSpec } from '../../reference/engine/model/containers/container-config.ts';
import type { Container } from '../../reference/engine/model/containers/container.ts';
import { EngineModel } from '../../reference/engine/model/engine-model.ts';
import type { HostConfig } from '../../reference/engine/model/containers/host-config.ts';
import { ManualScheduler } from '../../reference/engine/process/index.ts';

export interface ManualEngine {
  model: EngineModel;
  clock: ManualScheduler;
  /** `action` for each container event so far, `die:<exitCode>` and `kill:<signal>` with their attribute */
  events: string[];
  create(cmd: string[], options?: { config?: Partial<ContainerSpec>; hostConfig?: Partial<HostConfig>; name?: string }): Container;
  /** creates and starts */
  run(cmd: string[], options?: { config?: Partial<ContainerSpec>; hostConfig?: Partial<HostConfig>; name?: string }): Container;
  /** moves the clock on by `ms`, letting the processes and the engine react */
  advance(ms?: number): Promise<void>;
}

/** @param resolvConf the daemon's resolver configuration (default: none) */
export function manualEngine(resolvConf?: string): ManualEngine {
  const clock = new ManualScheduler();
  let next = 0;
  const model = new EngineModel({ scheduler: clock, ids: () => (++next).toString(16).padStart(64, 'c'), resolvConf });
  const events: string[] = [];
  model.events.subscribe(({ type, action, attributes }) => {
    if (type !== 'container') return;
    const detail = action === 'die' ? attributes.exitCode : action === 'kill' ? attributes.signal : undefined;
    events.push(detail === undefined ? action : `${action}:${detail}`);
  });
  const create: ManualEngine['create'] = (cmd, options = {}) =>
    model.containers.create({ name: options.name, config: { Image: 'busybox', Cmd: cmd, ...options.config }, hostConfig: options.hostConfig });
  return {
    model,
    clock,
    events,
    create,
    run(cmd, options) {
      const container = create(cmd, options);
      model.lifecycle.start(container);
      return container;
    },
    advance: (ms = 0) => clock.advance(ms),
  };
}
