/**
 * Network events as dockerd publishes them: the actor is the network, its attributes the network's
 * `name` and `type` (its driver), and for connect and disconnect the `container` id.
 */
import type { Container } from '../containers/container.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { Network } from './network.ts';

export class NetworkEvents {
  constructor(
    private readonly bus: EventBus,
    private readonly clock: () => Date,
  ) {}

  /** create, destroy */
  publish(network: Network, action: string): void {
    this.send(network, action, {});
  }

  /** connect, disconnect */
  publishEndpoint(network: Network, action: string, container: Container): void {
    this.send(network, action, { container: container.id });
  }

  private send(network: Network, action: string, attributes: Record<string, string>): void {
    this.bus.publish({
      type: 'network',
      action,
      actorId: network.id,
      attributes: { ...attributes, name: network.name, type: network.driver },
      time: this.clock(),
    });
  }
}
