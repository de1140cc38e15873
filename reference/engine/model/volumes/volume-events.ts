/**
 * Volume events as dockerd publishes them: the actor is the volume's name, the attributes its
 * driver, plus for mount the container, the destination, the propagation and `read/write`, and for
 * unmount the container.
 */
import type { EventBus } from '../events/event-bus.ts';
import type { Volume } from './volume.ts';

export interface MountFacts {
  containerId: string;
  destination: string;
  propagation: string;
  rw: boolean;
}

export class VolumeEvents {
  constructor(
    private readonly bus: EventBus,
    private readonly clock: () => Date,
  ) {}

  /** create or destroy */
  publish(volume: Volume, action: 'create' | 'destroy'): void {
    this.send(volume, action, {});
  }

  mounted(volume: Volume, mount: MountFacts): void {
    this.send(volume, 'mount', { container: mount.containerId, destination: mount.destination, propagation: mount.propagation, 'read/write': String(mount.rw) });
  }

  unmounted(volume: Volume, containerId: string): void {
    this.send(volume, 'unmount', { container: containerId });
  }

  private send(volume: Volume, action: string, attributes: Record<string, string>): void {
    // in key order, as dockerd's JSON of a Go map has them
    const sorted = Object.fromEntries(Object.entries({ ...attributes, driver: volume.driver }).sort(([a], [b]) => (a < b ? -1 : 1)));
    this.bus.publish({ type: 'volume', action, actorId: volume.name, attributes: sorted, time: this.clock() });
  }
}
