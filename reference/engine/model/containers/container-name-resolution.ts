/**
 * The network a container's processes meet (what ping and nslookup reach). On a user-defined network
 * dockerd's embedded DNS server (127.0.0.11) answers the names of the running containers on it: their
 * names, their aliases there, their short ids, and the aliases of the asking container's links there;
 * any other name it forwards to the host's resolvers, which here reach nothing. Other nameservers are
 * outside: no answer. A ping is answered by loopback, the container's own addresses, the gateways
 * of its networks and the running containers that share one with it.
 */
import type { DnsAnswer, NetworkView } from '../../process/index.ts';
import type { Container } from './container.ts';
import type { ContainerStore } from './container-store.ts';
import { isPredefinedName } from './host-config.ts';

const EMBEDDED_DNS = '127.0.0.11';
const SHORT_ID_LENGTH = 12;

/** The container whose network `container` uses: itself, or the one `container:<name>` names. */
function networkOwner(container: Container, store: ContainerStore): Container | undefined {
  const mode = container.hostConfig.NetworkMode;
  if (!mode.startsWith('container:')) return container;
  try {
    return store.find(mode.slice('container:'.length));
  } catch {
    return undefined;
  }
}

const sameName = (name: string) => {
  const wanted = name.replace(/\.$/, '').toLowerCase();
  return (candidate: string) => candidate.toLowerCase() === wanted;
};

/** The address the embedded DNS gives `name` for `asking` on its user-defined networks. */
function embeddedLookup(asking: Container, store: ContainerStore, name: string): string | undefined {
  const matches = sameName(name);
  const running = store.list({ all: true }).filter((other) => other.state.Running);
  for (const [network, endpoint] of Object.entries(asking.networks)) {
    if (isPredefinedName(network) || endpoint.IPAddress === '') continue;
    const addressOn = (other: Container | undefined) => (other?.state.Running ? other.networks[network]?.IPAddress || undefined : undefined);
    for (const link of endpoint.Links ?? []) {
      const at = link.lastIndexOf(':');
      const [target, alias] = at < 0 ? [link, link] : [link.slice(0, at), link.slice(at + 1)];
      if (matches(alias)) return addressOn(running.find((other) => other.name === `/${target.replace(/^\//, '')}` || other.id === target));
    }
    for (const other of running) {
      const there = other.networks[network];
      if (!there || there.IPAddress === '') continue;
      const names = [other.name.slice(1), other.id.slice(0, SHORT_ID_LENGTH), ...(there.Aliases ?? [])];
      if (names.some(matches)) return there.IPAddress;
    }
  }
  return undefined;
}

function onUserNetwork(container: Container): boolean {
  return Object.entries(container.networks).some(([network, endpoint]) => !isPredefinedName(network) && endpoint.IPAddress !== '');
}

/** The live view of `container`'s network: answers follow the store as it is when asked. */
export function containerNetworkView(container: Container, store: ContainerStore): NetworkView {
  return {
    askDns(server: string, name: string): DnsAnswer {
      const owner = networkOwner(container, store);
      if (!owner || server !== EMBEDDED_DNS || !onUserNetwork(owner)) return { kind: 'unreachable' };
      const address = embeddedLookup(owner, store, name);
      return address === undefined ? { kind: 'no-such-name' } : { kind: 'address', address };
    },
    answersPing(address: string): boolean {
      if (address.startsWith('127.')) return true;
      const owner = networkOwner(container, store);
      if (!owner) return false;
      const joined = Object.entries(owner.networks).filter(([, endpoint]) => endpoint.IPAddress !== '');
      const running = store.list({ all: true }).filter((other) => other.state.Running);
      return joined.some(([network, endpoint]) =>
        endpoint.IPAddress === address || endpoint.Gateway === address || running.some((other) => other.networks[network]?.IPAddress === address),
      );
    },
  };
}
