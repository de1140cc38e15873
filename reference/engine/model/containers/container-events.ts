/**
 * Container events as dockerd publishes them: the actor is the container, its attributes its labels
 * plus `image` and `name` (without the slash), plus what the action adds (`exitCode`, `signal`, …).
 */
import type { Container } from './container.ts';
import type { EventBus } from '../events/event-bus.ts';

export class ContainerEvents {
  constructor(
    private readonly bus: EventBus,
    private readonly clock: () => Date,
  ) {}

  publish(container: Container, action: string, extra: Record<string, string> = {}): void {
    this.bus.publish({
      type: 'container',
      action,
      actorId: container.id,
      attributes: { ...container.config.Labels, image: container.config.Image, name: container.name.replace(/^\//, ''), ...extra },
      time: this.clock(),
    });
  }
}
