/**
 * Property: any sequence of network create and remove, container create, start, stop and remove, and
 * connect and disconnect (dynamic or static addresses, refused or not) never has one address held
 * twice within a network, and leaves what GET /networks shows (each network's Containers) in step
 * with what every container's inspect shows (NetworkSettings.Networks): the same endpoints, addresses
 * and MAC addresses on both sides, and none on a container that is not running.
 * The seed comes from SHIPSHAPE_SEED: `SHIPSHAPE_SEED=<seed> npx vitest run --project unit test/reference/networks`.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DIALECTS } from '../../../protocol/dialect.ts';
import { containerInspect } from '../../../reference/engine/http/container-views.ts';
import { networkView } from '../../../reference/engine/http/network-views.ts';
import { PERSONALITIES } from '../../../reference/engine/http/personality.ts';
import type { Container, EndpointSettings } from '../../../reference/engine/model/containers/container.ts';
import { EngineError } from '../../../reference/engine/model/common/errors.ts';
import { formatIpAddress } from '../../../reference/engine/model/networks/ip-address.ts';
import { manualEngine, type ManualEngine } from '../manual-engine.ts';

const seed = Number(process.env.SHIPSHAPE_SEED ?? 424242);
const withSeed = (name: string) => `${name} (seed ${seed})`;

/** Small subnets, so that pools run out and addresses are reused within a sequence. */
const SUBNETS = ['10.213.1.0/29', '10.213.2.0/28', 'fd00:213::/125'];
const NETWORK_NAMES = ['red', 'green', 'blue'];

/** Indexes are taken modulo what exists when the step runs. */
type Step =
  | { op: 'create-network'; name: number; subnet: number; ipv6: boolean }
  | { op: 'remove-network'; network: number }
  | { op: 'create-container'; mode: number }
  | { op: 'start' | 'stop' | 'remove-container'; container: number }
  | { op: 'connect'; network: number; container: number; host: number | null }
  | { op: 'disconnect'; network: number; container: number; force: boolean };

const index = fc.nat(20);
/** Weighted towards starts and connects, so that sequences reach running containers on full networks. */
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ op: fc.constant('create-network' as const), name: index, subnet: index, ipv6: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('remove-network' as const), network: index }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('create-container' as const), mode: index }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('start' as const), container: index }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constantFrom('stop' as const, 'remove-container' as const), container: index }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('connect' as const), network: index, container: index, host: fc.option(fc.integer({ min: 1, max: 4 })) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('disconnect' as const), network: index, container: index, force: fc.boolean() }) },
);

const pick = <T,>(items: T[], at: number): T | undefined => (items.length === 0 ? undefined : items[at % items.length]);

async function take(engine: ManualEngine, step: Step): Promise<void> {
  const { model } = engine;
  const networks = [...model.networks];
  const containers = [...model.containers];
  const network = 'network' in step ? pick(networks, step.network) : undefined;
  const container = 'container' in step ? pick(containers, step.container) : undefined;
  switch (step.op) {
    case 'create-network': {
      const subnet = SUBNETS[step.subnet % SUBNETS.length] ?? '';
      const ipv6 = subnet.includes(':');
      const config = ipv6 ? [{ Subnet: '10.213.9.0/29' }, { Subnet: subnet }] : [{ Subnet: subnet }];
      model.networks.create({ name: NETWORK_NAMES[step.name % NETWORK_NAMES.length] ?? '', enableIPv6: ipv6 || step.ipv6, ipam: { config } });
      return;
    }
    case 'remove-network':
      if (network) model.networks.remove(network);
      return;
    case 'create-container': {
      const mode = pick(['default', 'none', 'host', ...networks.filter((candidate) => !candidate.builtin).map((candidate) => candidate.name)], step.mode);
      engine.create(['sleep', '300'], { hostConfig: { NetworkMode: mode } });
      return;
    }
    case 'start':
      if (container) model.lifecycle.start(container);
      return;
    case 'stop':
      if (container?.state.Running) await model.lifecycle.kill(container);
      return;
    case 'remove-container':
      if (container) await model.lifecycle.remove(container, { force: true });
      return;
    case 'connect': {
      if (!network || !container) return;
      // A static address: host number `host` of one of the requested subnets (either family, by the number's parity).
      const requested = network.pools.filter((pool) => pool.requested).map((pool) => pool.allocator.subnet);
      const subnet = step.host === null ? undefined : pick(requested, step.host);
      const address = subnet && step.host !== null ? formatIpAddress({ family: subnet.family, value: subnet.first + BigInt(step.host) }) : undefined;
      const family = subnet?.family === 6 ? 'IPv6Address' : 'IPv4Address';
      model.networkConnections.connect(network.name, container.id, { IPAMConfig: address === undefined ? null : { [family]: address } });
      return;
    }
    case 'disconnect':
      if (network && container) model.networkConnections.disconnect(network.name, container.id, step.force);
  }
}

/** Each network's view and each container's inspect agree, and no address is held twice in a network. */
function checkConsistency(engine: ManualEngine): void {
  const { model } = engine;
  const containers = new Map<string, Container>([...model.containers].map((container) => [container.id, container]));
  const inspected = new Map(
    [...containers.values()].map((container) => [container.id, containerInspect(container, { version: '1.25', dialect: DIALECTS.docker, personality: PERSONALITIES.dockerd }, []).NetworkSettings as { Networks: Record<string, EndpointSettings> }]),
  );
  const seenEndpoints = new Set<string>();
  for (const network of model.networks.list()) {
    const view = networkView(network, { version: '1.25', personality: PERSONALITIES.dockerd }) as {
      Id: string;
      Name: string;
      Containers: Record<string, { Name: string; EndpointID: string; MacAddress: string; IPv4Address: string; IPv6Address: string }>;
    };
    const addresses = Object.values(view.Containers).flatMap((endpoint) => [endpoint.IPv4Address, endpoint.IPv6Address]).filter(Boolean);
    expect(new Set(addresses).size, `addresses held on ${view.Name}: ${addresses.join(', ')}`).toBe(addresses.length);
    for (const [containerId, { Name, ...endpoint }] of Object.entries(view.Containers)) {
      const container = containers.get(containerId);
      expect(container?.state.Running, `a container with an endpoint on ${view.Name} exists and runs`).toBe(true);
      expect(`/${Name}`).toBe(container?.name);
      const settings = inspected.get(containerId)?.Networks[view.Name];
      expect(settings, `the inspect of ${containerId.slice(0, 12)} lists ${view.Name}`).toBeDefined();
      const cidr = (address: string | undefined, length: number | undefined) => (address ? `${address}/${length}` : '');
      expect({
        NetworkID: settings?.NetworkID,
        EndpointID: settings?.EndpointID,
        MacAddress: settings?.MacAddress,
        IPv4Address: cidr(settings?.IPAddress, settings?.IPPrefixLen),
        IPv6Address: cidr(settings?.GlobalIPv6Address, settings?.GlobalIPv6PrefixLen),
      }).toEqual({ NetworkID: view.Id, ...endpoint });
      seenEndpoints.add(endpoint.EndpointID);
    }
  }
  for (const [id, settings] of inspected) {
    const container = containers.get(id);
    for (const [name, endpoint] of Object.entries(settings.Networks)) {
      if (endpoint.EndpointID === '') {
        // A running container is on every network of its settings; only a stopped one keeps settings without an endpoint.
        expect(container?.state.Running, `${id.slice(0, 12)} has settings for ${name} without an endpoint`).toBe(false);
        expect(endpoint.IPAddress, 'a settings entry without an endpoint has no address').toBe('');
      } else {
        expect(seenEndpoints.has(endpoint.EndpointID), `the endpoint ${id.slice(0, 12)} shows on ${name} is in that network's Containers`).toBe(true);
      }
    }
  }
}

describe('containers on networks', () => {
  test(withSeed('random operations never hold an address twice in a network, and keep GET /networks and container inspect in step'), async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 15, maxLength: 40 }), async (steps) => {
        const engine = manualEngine();
        try {
          for (const step of steps) {
            try {
              await take(engine, step);
            } catch (error) {
              // A refusal is the model's answer to a step that cannot be: the state must still hold together.
              if (!(error instanceof EngineError)) throw error;
            }
            await engine.advance();
            checkConsistency(engine);
          }
        } finally {
          engine.model.lifecycle.shutdown();
        }
      }),
      { seed, numRuns: 150 },
    );
  }, 60_000);
});
