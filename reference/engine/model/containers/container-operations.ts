/**
 * What a client does to a container besides starting and stopping it: read its processes (top), its
 * log and its filesystem changes, resize its terminal, update its limits and restart policy. Each
 * publishes its event where dockerd does.
 */
import type { FilesystemChange } from '../../filesystem/filesystem-changes.ts';
import type { Container } from './container.ts';
import type { ContainerEvents } from './container-events.ts';
import type { LogEntry, LogReadOptions } from './container-log.ts';
import { ConflictError, EngineError, NotRunningError } from '../common/errors.ts';
import { logsReadable, type Resources } from './host-config.ts';
import { processListing, type ProcessListing } from './process-listing.ts';
import { isNoRestartPolicy, type RestartPolicy } from './restart-manager.ts';
import { checkResources, checkRestartPolicy, type ValidationRules } from './settings-validation.ts';

export interface ContainerUpdate {
  /** zero or absent: keep the current value */
  resources?: Partial<Resources>;
  /** a Name of '' keeps the current policy */
  restartPolicy?: RestartPolicy;
}

/** The limits an update changes (dockerd's UpdateContainer); the others stay as created. */
const UPDATABLE: readonly (keyof Resources)[] = [
  'BlkioWeight', 'CpuShares', 'CpuPeriod', 'CpuQuota', 'CpusetCpus', 'CpusetMems', 'Memory', 'MemorySwap', 'MemoryReservation', 'KernelMemory',
];

export class ContainerOperations {
  constructor(
    private readonly events: ContainerEvents,
    private readonly clock: () => Date,
  ) {}

  /** The processes as `ps` with `psArgs` (default `-ef`) shows them. */
  top(container: Container, psArgs = ''): ProcessListing {
    if (!container.state.Running) throw new NotRunningError(container.id);
    if (container.state.Restarting || !container.process) {
      throw new ConflictError(`Container ${container.id} is restarting, wait until the container is running`);
    }
    const listing = processListing(container.process.processTable(), psArgs, this.clock());
    this.events.publish(container, 'top');
    return listing;
  }

  logs(container: Container, options: LogReadOptions): AsyncGenerator<LogEntry> {
    // A server error (500), the status spec/1 §4.1's logs row lists for it; dockerd's 501 is not listed.
    if (!logsReadable(container.hostConfig.LogConfig)) throw new EngineError('configured logging driver does not support reading');
    return container.log.read(options);
  }

  /** What the container changed in its filesystem against its image: added, modified, deleted paths. */
  changes(container: Container): FilesystemChange[] {
    return container.filesystem.changes();
  }

  /** The simulated terminal has no size to change; the call is checked and recorded as dockerd records it. */
  resize(container: Container, height: number, width: number): void {
    if (!container.state.Running) throw new NotRunningError(container.id);
    this.events.publish(container, 'resize', { height: String(height), width: String(width) });
  }

  update(container: Container, update: ContainerUpdate, rules: ValidationRules = {}): void {
    const resources = update.resources ?? {};
    checkResources(resources, rules, true);
    const policy = update.restartPolicy;
    if (policy) checkRestartPolicy(policy);
    const refuse = (why: string) => new ConflictError(`Cannot update container ${container.id}: ${why}`);
    if (container.removing) throw new EngineError(`Cannot update container ${container.id}: container is marked for removal and cannot be "update"`);
    const current = container.hostConfig;
    // Compared as the engine compares it (up to dockerd 20.10): an unset (0) or unlimited (-1) swap
    // limit is below any memory limit too, so such an update must name its MemorySwap.
    if (resources.Memory && resources.Memory > current.MemorySwap && !resources.MemorySwap) {
      throw refuse('Memory limit should be smaller than already set memoryswap limit, update the memoryswap at the same time');
    }
    if (policy?.Name && current.AutoRemove && !isNoRestartPolicy(policy)) {
      throw refuse('Restart policy cannot be updated because AutoRemove is enabled for the container');
    }
    for (const key of UPDATABLE) {
      const value = resources[key];
      if (value) Object.assign(current, { [key]: value });
    }
    if (policy?.Name) {
      current.RestartPolicy = { ...policy };
      container.restartManager?.setPolicy(current.RestartPolicy);
    }
    this.events.publish(container, 'update');
  }
}
