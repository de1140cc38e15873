/**
 * Schemas of the network resources (spec/2 §2.4, §4.4) per API version. Open, like every schema
 * here: EnableIPv6 and Internal are required from 1.23 and Labels from 1.25, merely allowed before
 * (a newer daemon may add them at any version, spec/1 §1). Empty maps may come as null (Go's nil map).
 */
import { atLeast } from '../../protocol/versions.ts';
import { boolean, perVersion, string } from './schema-parts.ts';

const nullableStringMap = { type: ['object', 'null'], additionalProperties: string } as const;

/**
 * An entry of Containers: the endpoint of one container. spec/2 §2.4 gives no form for the addresses
 * (dockerd's CIDR form is networks.connect.cidr-addresses's) and does not say EndpointID is non-empty.
 */
const NETWORK_ENDPOINT_SCHEMA = {
  type: 'object',
  required: ['Name', 'EndpointID', 'MacAddress', 'IPv4Address', 'IPv6Address'],
  properties: {
    Name: string,
    EndpointID: string,
    MacAddress: string,
    IPv4Address: string,
    IPv6Address: string,
  },
} as const;

const IPAM_SCHEMA = {
  type: 'object',
  required: ['Driver', 'Config'],
  properties: {
    Driver: string,
    Config: {
      type: ['array', 'null'],
      items: { type: 'object', required: ['Subnet'], properties: { Subnet: string, IPRange: string, Gateway: string } },
    },
    Options: nullableStringMap,
  },
} as const;

/** GET /networks/{id} and each item of GET /networks. */
export const networkSchema = perVersion((version: string) => ({
  type: 'object',
  required: [
    'Name',
    'Id',
    'Scope',
    'Driver',
    'IPAM',
    'Containers',
    'Options',
    ...(atLeast(version, '1.23') ? ['EnableIPv6', 'Internal'] : []),
    ...(atLeast(version, '1.25') ? ['Labels'] : []),
  ],
  properties: {
    Name: { type: 'string', minLength: 1 },
    Id: { type: 'string', minLength: 1 },
    Scope: string,
    Driver: { type: 'string', minLength: 1 },
    EnableIPv6: boolean,
    Internal: boolean,
    IPAM: IPAM_SCHEMA,
    Containers: { type: ['object', 'null'], additionalProperties: NETWORK_ENDPOINT_SCHEMA },
    Options: nullableStringMap,
    Labels: nullableStringMap,
  },
}));

export const networkListSchema = perVersion((version: string) => ({ type: 'array', items: networkSchema(version) }));

/** 201 of POST /networks/create: "{Id, Warning}" (spec/2 §4.4), Warning without a type. */
export const NETWORK_CREATED_SCHEMA = {
  type: 'object',
  required: ['Id', 'Warning'],
  properties: { Id: { type: 'string', minLength: 1 } },
} as const;
