/**
 * Image events as dockerd publishes them: the actor is the image id, the attributes the image's
 * labels plus `name` — the tag for `tag`, the image id itself for `untag`, `delete` and `import`.
 */
import type { EventBus } from '../events/event-bus.ts';
import type { Image } from './image.ts';

export class ImageEvents {
  constructor(
    private readonly bus: EventBus,
    private readonly clock: () => Date,
  ) {}

  publish(image: Image, action: string, name: string = image.id): void {
    this.send(image, action, { ...image.config.Labels, name });
  }

  /** dockerd looks the labels up once the image is gone: a `delete` carries the name only. */
  publishDeleted(image: Image): void {
    this.send(image, 'delete', { name: image.id });
  }

  private send(image: Image, action: string, attributes: Record<string, string>): void {
    this.bus.publish({ type: 'image', action, actorId: image.id, attributes, time: this.clock() });
  }
}
