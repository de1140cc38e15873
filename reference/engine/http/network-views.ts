/**
 * Networks as each API version shows them (spec/2 §2.4): EnableIPv6 and Internal from 1.23; Labels,
 * and dockerd's Created and Attachable, from 1.25. Containers maps the id of each running container
 * on the network to its endpoint, addresses in CIDR form.
 */
import { formatIpAddress } from '../model/networks/ip-address.ts';
import type { EndpointAddress, Network } from '../model/networks/network.ts';
import { formatTimestamp } from '../model/common/timestamps.ts';
import type { AnswerShape } from './personality.ts';

export function networkView(network: Network, { version, personality }: Pick<AnswerShape, 'version' | 'personality'>): Record<string, unknown> {
  const { settings } = network;
  const shows = (since: string) => personality.shows(version, since);
  return {
    Name: network.name,
    Id: network.id,
    ...(shows('1.25') && { Created: formatTimestamp(network.created) }),
    Scope: network.scope,
    Driver: network.driver,
    ...(shows('1.23') && { EnableIPv6: settings.enableIPv6 }),
    IPAM: settings.ipam,
    ...(shows('1.23') && { Internal: settings.internal }),
    ...(shows('1.25') && { Attachable: settings.attachable }),
    Containers: Object.fromEntries(
      [...network.endpoints.values()].map((endpoint) => [
        endpoint.container.id,
        {
          Name: endpoint.container.name.replace(/^\//, ''),
          EndpointID: endpoint.id,
          MacAddress: endpoint.macAddress,
          IPv4Address: cidrText(endpoint.ipv4),
          IPv6Address: cidrText(endpoint.ipv6),
        },
      ]),
    ),
    Options: settings.options,
    ...(shows('1.25') && { Labels: settings.labels }),
  };
}

function cidrText(held: EndpointAddress | undefined): string {
  return held ? `${formatIpAddress(held.address)}/${held.prefixLength}` : '';
}
