/** The bodies of network create, connect and disconnect (spec/2 §4.4), decoded as dockerd decodes them, as the model's options. */
import type { EndpointRequest } from '../model/networks/network-connections.ts';
import type { IpamPoolRequest } from '../model/networks/network-ipam.ts';
import type { NetworkCreateOptions } from '../model/networks/network-store.ts';
import { NETWORK_CONNECT, NETWORK_CREATE_REQUEST, NETWORK_DISCONNECT } from './body-structs.ts';
import { decodeGo } from './json-fields.ts';
import type { RequestShape } from './personality.ts';

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

/** An EndpointSettings of a connect or of a create's NetworkingConfig. */
export interface DecodedEndpointSettings {
  IPAMConfig?: { IPv4Address?: string; IPv6Address?: string; LinkLocalIPs?: string[] };
  Aliases?: string[];
  Links?: string[];
  MacAddress?: string;
}

/** The create's options, with the driver options the personality keeps, and its warning about the others. */
export function parseNetworkCreateBody(body: unknown, { version, personality }: RequestShape): { options: NetworkCreateOptions; warning?: string } {
  const fields = decodeGo<NetworkCreateRequest>(body ?? {}, NETWORK_CREATE_REQUEST, personality.decoding(version));
  const driverOptions = personality.driverOptions(fields.Options ?? {});
  const ipam = fields.IPAM;
  const options: NetworkCreateOptions = {
    name: fields.Name ?? '',
    checkDuplicate: fields.CheckDuplicate ?? false,
    driver: fields.Driver ?? '',
    internal: fields.Internal ?? false,
    enableIPv6: fields.EnableIPv6 ?? false,
    attachable: fields.Attachable ?? false,
    ipam: ipam ? {
      driver: ipam.Driver ?? '',
      config: (ipam.Config ?? []).map((pool) => ({ Subnet: pool.Subnet ?? '', IPRange: pool.IPRange ?? '', Gateway: pool.Gateway ?? '', ...(pool.AuxiliaryAddresses && { AuxiliaryAddresses: pool.AuxiliaryAddresses }) })),
      options: ipam.Options,
    } : undefined,
    options: driverOptions.kept,
    labels: fields.Labels ?? {},
  };
  return { options, ...(driverOptions.warning !== undefined && { warning: driverOptions.warning }) };
}

export function parseNetworkConnectBody(body: unknown): { container: string; endpoint: EndpointRequest } {
  const fields = decodeGo<{ Container?: string; EndpointConfig?: DecodedEndpointSettings }>(body ?? {}, NETWORK_CONNECT);
  return { container: fields.Container ?? '', endpoint: endpointRequest(fields.EndpointConfig ?? {}) };
}

/** What the model keeps of an endpoint's settings; dockerd leaves out an address not given (omitempty). */
export function endpointRequest(config: DecodedEndpointSettings): EndpointRequest {
  const ipam = config.IPAMConfig;
  const { IPv4Address, IPv6Address, LinkLocalIPs } = ipam ?? {};
  return {
    IPAMConfig: ipam ? { ...(IPv4Address && { IPv4Address }), ...(IPv6Address && { IPv6Address }), ...(LinkLocalIPs?.length && { LinkLocalIPs }) } : null,
    Aliases: config.Aliases ?? null,
    Links: config.Links ?? null,
    ...(config.MacAddress && { MacAddress: config.MacAddress }),
  };
}

export function parseNetworkDisconnectBody(body: unknown): { container: string; force: boolean } {
  const fields = decodeGo<{ Container?: string; Force?: boolean }>(body ?? {}, NETWORK_DISCONNECT);
  return { container: fields.Container ?? '', force: fields.Force ?? false };
}
