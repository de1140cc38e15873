/**
 * The body of POST /containers/create turned into the model's options: decoded as dockerd decodes it
 * (body-structs.ts: a wrong type is a 400 in Go's words), then the Config fields the model keeps and
 * what a version reads differently decided here.
 */
import { atLeast } from '../../../protocol/versions.ts';
import type { ContainerSpec } from '../model/containers/container-config.ts';
import { InvalidParameterError } from '../model/common/errors.ts';
import type { HostConfig } from '../model/containers/host-config.ts';
import type { EndpointRequest } from '../model/networks/network-connections.ts';
import { CONTAINER_CONFIG_WRAPPER, HOST_CONFIG_FIELD_NAMES } from './body-structs.ts';
import { hostConfigOptions, type DecodedHostConfig } from './host-config-body.ts';
import { decodeGo } from './json-fields.ts';
import { endpointRequest, type DecodedEndpointSettings } from './network-body.ts';
import type { RequestShape } from './personality.ts';

export interface CreateRequest {
  config: ContainerSpec;
  hostConfig?: Partial<HostConfig>;
  /** NetworkingConfig's settings by network name (from 1.22: spec/1 §9.4 "static IP addresses at create") */
  endpoints: Record<string, EndpointRequest>;
}

type DecodedConfig = Partial<Omit<ContainerSpec, 'Image'>> & {
  Image?: string;
  HostConfig?: DecodedHostConfig;
  NetworkingConfig?: { EndpointsConfig?: Record<string, DecodedEndpointSettings> };
};

const CONFIG_FIELDS = [
  'Cmd', 'Env', 'Labels', 'ExposedPorts', 'Volumes', 'AttachStdin', 'AttachStdout', 'AttachStderr', 'Tty', 'OpenStdin', 'StdinOnce', 'NetworkDisabled',
  'Hostname', 'Domainname', 'User', 'WorkingDir', 'MacAddress', 'StopSignal', 'StopTimeout', 'Healthcheck',
] as const;

export function parseCreateBody(body: unknown, shape: RequestShape): CreateRequest {
  if (body === undefined || body === null) throw new InvalidParameterError('Config cannot be empty in order to create a container');
  const fields = decodeGo<DecodedConfig>(body, CONTAINER_CONFIG_WRAPPER, shape.personality.decoding(shape.version));
  if (!fields.Image) throw new InvalidParameterError('Config.Image is required: the reference creates containers from an image');
  const config: ContainerSpec = { Image: fields.Image };
  for (const name of CONFIG_FIELDS) if (fields[name] !== undefined) Object.assign(config, { [name]: fields[name] });
  // From 1.25, `[""]` resets the entrypoint: no entrypoint, not even the image's (the model's empty list).
  const entrypoint = fields.Entrypoint;
  if (entrypoint !== undefined) config.Entrypoint = atLeast(shape.version, '1.25') && entrypoint?.length === 1 && entrypoint[0] === '' ? [] : entrypoint;
  const given = decodedHostConfig(fields);
  const hostConfigGiven = given === undefined ? undefined : hostConfigOptions(given, shape);
  const shmSize = shape.personality.defaultShmSize;
  const hostConfig = shmSize !== undefined && !hostConfigGiven?.ShmSize ? { ...hostConfigGiven, ShmSize: shmSize } : hostConfigGiven;
  // A create joins a single network, as dockerd says (the others are joined with network connect).
  const endpoints = Object.entries(fields.NetworkingConfig?.EndpointsConfig ?? {});
  if (endpoints.length > 1) throw new InvalidParameterError(`Container cannot be connected to network endpoints: ${endpoints.map(([network]) => network).join(', ')}`);
  return { config, hostConfig, endpoints: Object.fromEntries(endpoints.map(([network, settings]) => [network, endpointRequest(settings)])) };
}

/**
 * HostConfig, or (as dockerd's wrapper reads an old client's create) the host config fields at the
 * body's top level when there is none; given both, a top-level Memory fills in a HostConfig without one.
 */
function decodedHostConfig(fields: DecodedConfig): DecodedHostConfig | undefined {
  const topLevel: Record<string, unknown> = Object.fromEntries(HOST_CONFIG_FIELD_NAMES.filter((name) => name in fields).map((name) => [name, (fields as Record<string, unknown>)[name]]));
  const inner = fields.HostConfig;
  if (inner === undefined) return Object.keys(topLevel).length > 0 ? (topLevel as DecodedHostConfig) : undefined;
  if (typeof topLevel.Memory === 'number' && topLevel.Memory !== 0 && !inner.Memory) return { ...inner, Memory: topLevel.Memory };
  return inner;
}
