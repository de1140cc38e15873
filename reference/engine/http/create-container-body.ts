/**
 * The body of POST /containers/create turned into the model's options: the Config fields the model
 * keeps, type-checked (a wrong type is a 400, as dockerd's JSON decoder gives); unknown properties
 * ignored; what a version reads differently decided here.
 */
import type { ContainerSpec } from '../model/container-config.ts';
import { InvalidParameterError } from '../model/errors.ts';
import type { HostConfig } from '../model/host-config.ts';
import { parseHostConfig } from './host-config-body.ts';
import type { RequestShape } from './personality.ts';
import { asObject, isBoolean, isInteger, isPlainObject, isString, isStringList, isStringMap, optional } from './json-fields.ts';

export interface CreateRequest {
  config: ContainerSpec;
  hostConfig?: Partial<HostConfig>;
}

const BOOLEAN_FIELDS = ['AttachStdin', 'AttachStdout', 'AttachStderr', 'Tty', 'OpenStdin', 'StdinOnce', 'NetworkDisabled'] as const;
const STRING_FIELDS = ['Hostname', 'Domainname', 'User', 'WorkingDir', 'MacAddress'] as const;

export function parseCreateBody(body: unknown, shape: RequestShape): CreateRequest {
  const takes = (since: string) => shape.personality.takes(shape.version, since);
  if (body === undefined || body === null) throw new InvalidParameterError('Config cannot be empty in order to create a container');
  const fields = asObject(body, 'Config');
  const image = optional(fields.Image, 'Image', isString);
  if (!image) throw new InvalidParameterError('Config.Image is required: the reference creates containers from an image');
  const config: ContainerSpec = {
    Image: image,
    Cmd: commandField(fields.Cmd, 'Cmd'),
    Entrypoint: entrypointField(fields.Entrypoint, takes('1.25')),
    Env: optional(fields.Env, 'Env', isStringList),
    Labels: optional(fields.Labels, 'Labels', isStringMap),
    ExposedPorts: optional(fields.ExposedPorts, 'ExposedPorts', isPlainObject),
    Volumes: optional(fields.Volumes, 'Volumes', isPlainObject),
  };
  for (const name of BOOLEAN_FIELDS) config[name] = optional(fields[name], name, isBoolean) ?? undefined;
  for (const name of STRING_FIELDS) config[name] = optional(fields[name], name, isString) ?? undefined;
  // StopSignal came with 1.21; it may be a name or a number.
  if (takes('1.21') && fields.StopSignal !== undefined && fields.StopSignal !== null) {
    const signal = fields.StopSignal;
    if (!isString(signal) && !isInteger(signal)) optional(signal, 'StopSignal', isString);
    config.StopSignal = String(signal);
  }
  const hostConfig = fields.HostConfig === undefined || fields.HostConfig === null ? undefined : parseHostConfig(fields.HostConfig, shape);
  // NetworkingConfig came with 1.25; the endpoint settings it gives wait for networks to be modelled.
  if (takes('1.25')) checkNetworkingConfig(fields.NetworkingConfig);
  return { config, hostConfig };
}

/**
 * {EndpointsConfig: {<network>: {IPAMConfig, Links, Aliases}}}, for one network at most: a create
 * joins a single network, as dockerd says (the others are joined with network connect).
 */
function checkNetworkingConfig(value: unknown): void {
  if (value === undefined || value === null) return;
  const endpoints = optional(asObject(value, 'NetworkingConfig').EndpointsConfig, 'NetworkingConfig.EndpointsConfig', isPlainObject) ?? {};
  for (const [network, settings] of Object.entries(endpoints)) {
    if (settings === null) continue;
    const field = `NetworkingConfig.EndpointsConfig.${network}`;
    const endpoint = asObject(settings, field);
    for (const name of ['Links', 'Aliases']) optional(endpoint[name], `${field}.${name}`, isStringList);
    const ipam = endpoint.IPAMConfig === undefined || endpoint.IPAMConfig === null ? {} : asObject(endpoint.IPAMConfig, `${field}.IPAMConfig`);
    for (const name of ['IPv4Address', 'IPv6Address']) optional(ipam[name], `${field}.IPAMConfig.${name}`, isString);
    optional(ipam.LinkLocalIPs, `${field}.IPAMConfig.LinkLocalIPs`, isStringList);
  }
  const networks = Object.keys(endpoints);
  if (networks.length > 1) throw new InvalidParameterError(`Container cannot be connected to network endpoints: ${networks.join(', ')}`);
}

/** A command is a list of words, or one string standing for a one-word list. */
export function commandField(value: unknown, field: string): string[] | null | undefined {
  if (typeof value === 'string') return [value];
  return optional(value, field, isStringList);
}

/** From 1.25, `[""]` resets the entrypoint: no entrypoint, not even the image's (the model's empty list). */
function entrypointField(value: unknown, resets: boolean): string[] | null | undefined {
  const entrypoint = commandField(value, 'Entrypoint');
  if (resets && entrypoint?.length === 1 && entrypoint[0] === '') return [];
  return entrypoint;
}
