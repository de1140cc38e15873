/**
 * Network endpoints (spec/2 §4.4): list, inspect, create, connect, disconnect, remove. Served at every
 * version prefix, as dockerd serves them, though the spec has them from 1.21; the removal answers 200
 * before 1.22 and 204 from then on.
 */
import { before } from '../../../harness/versions.ts';
import type { EndpointRequest } from '../model/network-connections.ts';
import type { NetworkCreateOptions } from '../model/network-store.ts';
import type { IpamPoolRequest } from '../model/network-ipam.ts';
import { checkFilterNames, parseFiltersQuery } from './filters-query.ts';
import { readJsonBody } from './json-body.ts';
import { asObject, isBoolean, isPlainObject, isString, isStringList, isStringMap, optional } from './json-fields.ts';
import { networkView } from './network-views.ts';
import { sendEmpty, sendJson } from './replies.ts';
import type { Route } from './route-table.ts';

/** dockerd's network list filters; `dangling` is known there but not applied in the reference yet. */
const LIST_FILTERS = { applied: ['driver', 'id', 'label', 'name', 'scope', 'type'], notYet: ['dangling'] } as const;

export const networkRoutes: Route[] = [
  {
    method: 'GET',
    path: '/networks',
    handle: ({ response, model, query, version, personality }) => {
      const filters = parseFiltersQuery(query.get('filters'));
      checkFilterNames(filters, LIST_FILTERS);
      sendJson(response, 200, personality.unordered(model.networks.list(filters)).map((network) => networkView(network, { version, personality })));
    },
  },
  {
    method: 'POST',
    path: '/networks/create',
    handle: async ({ request, response, model }) => {
      const { network, warning } = model.networks.create(parseCreateBody(await readJsonBody(request)));
      sendJson(response, 201, { Id: network.id, Warning: warning });
    },
  },
  {
    method: 'GET',
    path: '/networks/{id}',
    handle: ({ response, model, params, version, personality }) => {
      sendJson(response, 200, networkView(model.networks.find(params.id ?? ''), { version, personality }));
    },
  },
  {
    method: 'POST',
    path: '/networks/{id}/connect',
    handle: async ({ request, response, model, params }) => {
      const body = asObject((await readJsonBody(request)) ?? {}, 'NetworkConnect');
      const endpointConfig = optional(body.EndpointConfig, 'EndpointConfig', isPlainObject);
      model.networkConnections.connect(params.id ?? '', optional(body.Container, 'Container', isString) ?? '', parseEndpointConfig(endpointConfig ?? {}));
      sendEmpty(response, 200);
    },
  },
  {
    method: 'POST',
    path: '/networks/{id}/disconnect',
    handle: async ({ request, response, model, params }) => {
      const body = asObject((await readJsonBody(request)) ?? {}, 'NetworkDisconnect');
      const container = optional(body.Container, 'Container', isString) ?? '';
      model.networkConnections.disconnect(params.id ?? '', container, optional(body.Force, 'Force', isBoolean) ?? false);
      sendEmpty(response, 200);
    },
  },
  {
    method: 'DELETE',
    path: '/networks/{id}',
    handle: ({ response, model, params, version }) => {
      model.networks.remove(model.networks.find(params.id ?? ''));
      sendEmpty(response, before(version, '1.22') ? 200 : 204);
    },
  },
];

function parseCreateBody(body: unknown): NetworkCreateOptions {
  const fields = asObject(body ?? {}, 'NetworkCreateRequest');
  const ipam = optional(fields.IPAM, 'IPAM', isPlainObject);
  return {
    name: optional(fields.Name, 'Name', isString) ?? '',
    checkDuplicate: optional(fields.CheckDuplicate, 'CheckDuplicate', isBoolean) ?? false,
    driver: optional(fields.Driver, 'Driver', isString) ?? '',
    internal: optional(fields.Internal, 'Internal', isBoolean) ?? false,
    enableIPv6: optional(fields.EnableIPv6, 'EnableIPv6', isBoolean) ?? false,
    attachable: optional(fields.Attachable, 'Attachable', isBoolean) ?? false,
    ipam: ipam ? {
      driver: optional(ipam.Driver, 'IPAM.Driver', isString) ?? '',
      config: (optional(ipam.Config, 'IPAM.Config', Array.isArray) ?? []).map((pool, index) => parsePool(pool, `IPAM.Config[${index}]`)),
      options: optional(ipam.Options, 'IPAM.Options', isStringMap) ?? undefined,
    } : undefined,
    options: optional(fields.Options, 'Options', isStringMap) ?? {},
    labels: optional(fields.Labels, 'Labels', isStringMap) ?? {},
  };
}

function parsePool(value: unknown, field: string): IpamPoolRequest {
  const pool = asObject(value, field);
  return {
    Subnet: optional(pool.Subnet, `${field}.Subnet`, isString) ?? '',
    IPRange: optional(pool.IPRange, `${field}.IPRange`, isString) ?? '',
    Gateway: optional(pool.Gateway, `${field}.Gateway`, isString) ?? '',
  };
}

function parseEndpointConfig(config: Record<string, unknown>): EndpointRequest {
  const ipam = optional(config.IPAMConfig, 'EndpointConfig.IPAMConfig', isPlainObject);
  const address = (family: 'IPv4Address' | 'IPv6Address') => optional(ipam?.[family], `EndpointConfig.IPAMConfig.${family}`, isString) || undefined;
  const [IPv4Address, IPv6Address] = [address('IPv4Address'), address('IPv6Address')];
  return {
    // dockerd leaves out an address not given (omitempty).
    IPAMConfig: ipam ? { ...(IPv4Address && { IPv4Address }), ...(IPv6Address && { IPv6Address }) } : null,
    Aliases: optional(config.Aliases, 'EndpointConfig.Aliases', isStringList) ?? null,
    Links: optional(config.Links, 'EndpointConfig.Links', isStringList) ?? null,
  };
}
