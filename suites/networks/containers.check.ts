/**
 * Containers and their networks kept in step (spec/2 §2.4, spec/1 §2.2): HostConfig.NetworkMode puts
 * a container on the default bridge or a user network as it starts; a container that stops or goes
 * away holds no endpoint any more, and one that starts again gets one back.
 */
import { check } from '../../harness/check.ts';
import { inspectContainer } from '../container-steps.ts';
import { bothSides, inspectNetwork, networkModeContainer, runningContainer } from './network-steps.ts';

check('networks.containers.default-bridge', {
  title: 'a started container with the default NetworkMode is on the bridge network, with the address its inspect shows',
  spec: '2 §2.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.21',
  tags: ['state'],
  covers: ['1:POST /containers/create:body:HostConfig.NetworkMode'],
}, async (context) => {
  const container = await runningContainer(context);
  const sides = await bothSides(context, 'bridge', container);
  context.expect(sides.network, 'the bridge network’s Containers entry for the container').toBeDefined();
  context.expect(sides.network?.IPv4Address, 'IPv4Address on the bridge').toBe(`${sides.container?.IPAddress}/${sides.container?.IPPrefixLen}`);
});

check('networks.containers.network-mode', {
  title: 'a container created with a user network as NetworkMode is on that network, and only that one, once started',
  spec: '2 §2.4, 1 §2.1, §2.2, §2.3',
  quote: ['| NetworkMode | string | bridge, host, none, `container:<name or id>`; any other value is the name of a custom network |', 'Networks (map network name to endpoint settings)', 'Endpoint settings object: IPAMConfig, Links, Aliases, NetworkID, EndpointID, Gateway, IPAddress, IPPrefixLen (integer), IPv6Gateway, GlobalIPv6Address, GlobalIPv6PrefixLen (integer), MacAddress.', 'Containers (map container id to {Name, EndpointID, MacAddress, IPv4Address, IPv6Address})'],
  since: '1.21',
  tags: ['state'],
  covers: ['1:POST /containers/create:body:HostConfig.NetworkMode'],
}, async (context) => {
  const { id, name, container } = await networkModeContainer(context);
  const inspected = await inspectContainer<{ NetworkSettings: { Networks?: Record<string, { NetworkID: string }> } }>(context, container);
  const networks = Object.entries(inspected.NetworkSettings.Networks ?? {}).map(([key, settings]) => [key, settings.NetworkID]);
  context.expect(networks, 'the container’s networks and their ids').toEqual([[name, id]]);
  context.expect(Object.keys((await inspectNetwork(context, id)).Containers ?? {}), 'the containers on the network').toEqual([container]);
});

check('networks.containers.stop-releases', {
  title: 'a stopped container holds no endpoint: its network lists it no more and its inspect shows no address there, until it starts again',
  spec: '2 §2.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.21',
  tags: ['state'],
  covers: ['2:GET /networks/{network-id}'],
}, async (context) => {
  const { id, container } = await networkModeContainer(context);
  const stopped = await context.engine.post(`/containers/${container}/stop`, { query: { t: 0 } });
  context.expect(stopped.status, 'POST /containers/{id}/stop status').toBe(204);
  const whileStopped = await bothSides(context, id, container);
  context.expect({ network: whileStopped.network, address: whileStopped.container?.IPAddress ?? '' }, 'the endpoint of the stopped container').toEqual({ network: undefined, address: '' });
  const started = await context.engine.post(`/containers/${container}/start`);
  context.expect(started.status, 'POST /containers/{id}/start status').toBe(204);
  const again = await bothSides(context, id, container);
  context.expect(again.network?.IPv4Address, 'IPv4Address on the network once started again').toBe(`${again.container?.IPAddress}/${again.container?.IPPrefixLen}`);
});

check('networks.containers.remove-releases', {
  title: 'a running container removed with force is on its network no more',
  spec: '2 §2.4, 1 §3, §4.1',
  quote: ['| DELETE /containers/{id_or_name} | v (remove associated volumes, default false), force (kill then remove, default false) | none | 204 |', '| remove with force=true | | container is killed, then removed |', 'Containers (map container id to {Name, EndpointID, MacAddress, IPv4Address, IPv6Address})'],
  since: '1.21',
  tags: ['state'],
  covers: ['2:GET /networks/{network-id}'],
}, async (context) => {
  const { id, container } = await networkModeContainer(context);
  const removed = await context.engine.delete(`/containers/${container}`, { query: { force: 1 } });
  context.expect(removed.status, 'DELETE /containers/{id}?force=1 status').toBe(204);
  context.expect(Object.keys((await inspectNetwork(context, id)).Containers ?? {}), 'the containers on the network').toEqual([]);
});
