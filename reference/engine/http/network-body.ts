/** The bodies of network create, connect and disconnect (spec/2 §4.4), decoded as dockerd decodes them, as the model's options. */
import type { EndpointRequest } from '../model/network-connections.ts';
import type { IpamPoolRequest } from '../model/network-ipam.ts';
import type { NetworkCreateOptions } from '../model/network-store.ts';
import { NETWORK_CONNECT, NETWORK_CREATE_REQUEST, NETWORK_DISCONNECT } from './body-structs.ts';
import { decodeGo } from './json-fields.ts';

interface NetworkCreateRequest {
  Name?: string;
  CheckDuplicate?: boolean;
  Driver?: string;
  Internal?: boolean;
  EnableIPv6?: boolean;
  Attachable?: boolean;
  IPAM?: { Driver?: string; Config?: Partial<IpamPoolRequest>[]; Options?: Record<string, string> };
  Options?: Record<string, string>;
  Labels?: Record<string, string>;
}

interface EndpointSettings {
  IPAMConfig?: { IPv4Address?: string; IPv6Address?: string };
  Aliases?: string[];
  Links?: string[];
}

export function parseNetworkCreateBody(body: unknown): NetworkCreateOptions {
  const fields = decodeGo<NetworkCreateRequest>(body ?? {}, NETWORK_CREATE_REQUEST);
  const ipam = fields.IPAM;
  return {
    name: fields.Name ?? '',
    checkDuplicate: fields.CheckDuplicate ?? false,
    driver: fields.Driver ?? '',
    internal: fields.Internal ?? false,
    enableIPv6: fields.EnableIPv6 ?? false,
    attachable: fields.Attachable ?? false,
    ipam: ipam ? {
      driver: ipam.Driver ?? '',
      config: (ipam.Config ?? []).map((pool) => ({ Subnet: pool.Subnet ?? '', IPRange: pool.IPRange ?? '', Gateway: pool.Gateway ?? '' })),
      options: ipam.Options,
    } : undefined,
    options: fields.Options ?? {},
    labels: fields.Labels ?? {},
  };
}

export function parseNetworkConnectBody(body: unknown): { container: string; endpoint: EndpointRequest } {
  const fields = decodeGo<{ Container?: string; EndpointConfig?: EndpointSettings }>(body ?? {}, NETWORK_CONNECT);
  const config = fields.EndpointConfig ?? {};
  const ipam = config.IPAMConfig;
  const { IPv4Address, IPv6Address } = ipam ?? {};
  return {
    container: fields.Container ?? '',
    endpoint: {
      // dockerd leaves out an address not given (omitempty).
      IPAMConfig: ipam ? { ...(IPv4Address && { IPv4Address }), ...(IPv6Address && { IPv6Address }) } : null,
      Aliases: config.Aliases ?? null,
      Links: config.Links ?? null,
    },
  };
}

export function parseNetworkDisconnectBody(body: unknown): { container: string; force: boolean } {
  const fields = decodeGo<{ Container?: string; Force?: boolean }>(body ?? {}, NETWORK_DISCONNECT);
  return { container: fields.Container ?? '', force: fields.Force ?? false };
}
