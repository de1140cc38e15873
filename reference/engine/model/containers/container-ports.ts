/**
 * The host ports a running container publishes, as dockerd 20.10 shows them (NetworkSettings.Ports,
 * the list's Ports; the spec only names PortBindings and PublishAllPorts, spec/1 §2.3): each exposed
 * port with its bindings, an empty HostPort given the next free port of the ephemeral range, an empty
 * HostIp bound on 0.0.0.0 and on ::; an exposed port without a binding shows null. Nothing is opened
 * on the host: the reference only reports the mapping. It holds from the start event to the die.
 */
import type { Container } from './container.ts';
import type { ContainerStore } from './container-store.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { PortBinding, PortMap } from './host-config.ts';

/** Linux's ephemeral range, where dockerd's port allocator takes ports from. */
const FIRST_EPHEMERAL_PORT = 32768;
const LAST_EPHEMERAL_PORT = 60999;

export class PortPublisher {
  private next = FIRST_EPHEMERAL_PORT;

  constructor(
    bus: EventBus,
    private readonly containers: ContainerStore,
  ) {
    bus.observe((event) => {
      if (event.type !== 'container' || (event.action !== 'start' && event.action !== 'die')) return;
      const container = [...containers].find((candidate) => candidate.id === event.actorId);
      if (container) container.publishedPorts = event.action === 'start' ? this.publish(container) : undefined;
    });
  }

  private publish(container: Container): PortMap {
    const bindings = (container.hostConfig.PortBindings ?? {}) as Record<string, Partial<PortBinding>[] | null>;
    const ports: PortMap = {};
    for (const port of Object.keys(container.config.ExposedPorts ?? {})) {
      const given = bindings[port]?.length ? bindings[port] : container.hostConfig.PublishAllPorts ? [{}] : [];
      ports[port] = given.length === 0 ? null : given.flatMap((binding) => {
        const HostPort = binding.HostPort || String(this.allocate());
        return binding.HostIp ? [{ HostIp: binding.HostIp, HostPort }] : [{ HostIp: '0.0.0.0', HostPort }, { HostIp: '::', HostPort }];
      });
    }
    return ports;
  }

  /** The next ephemeral port no running container publishes. */
  private allocate(): number {
    const taken = new Set([...this.containers].flatMap((container) => Object.values(container.publishedPorts ?? {}).flatMap((list) => (list ?? []).map((binding) => Number(binding.HostPort)))));
    for (let tries = 0; tries <= LAST_EPHEMERAL_PORT - FIRST_EPHEMERAL_PORT; tries++) {
      const port = this.next;
      this.next = port === LAST_EPHEMERAL_PORT ? FIRST_EPHEMERAL_PORT : port + 1;
      if (!taken.has(port)) return port;
    }
    throw new Error('no free port in the ephemeral range');
  }
}

/** The container list's Ports: one item per binding, one without a public port for an exposed port that has none. */
export function listedPorts(ports: PortMap | undefined): Record<string, unknown>[] {
  return Object.entries(ports ?? {}).flatMap(([key, bindings]) => {
    const [number, type = 'tcp'] = key.split('/');
    const PrivatePort = Number(number);
    if (bindings === null) return [{ PrivatePort, Type: type }];
    return bindings.map((binding) => ({ IP: binding.HostIp, PrivatePort, PublicPort: Number(binding.HostPort), Type: type }));
  });
}
