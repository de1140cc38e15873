/**
 * Schemas of the container resources (spec/1 §2.1, §2.2, §2.4) per API version. Open, like every
 * schema here: a newer daemon may add properties at any version (spec/1 §1, §9.1), so a field marked
 * [1.21+] is required from 1.21 on and merely allowed before. Fields the spec shows only up to some
 * version (Volumes/VolumesRW, ExecDriver) and the NetworkSettings shape before 1.21 are rules of their
 * own checks; here they are only typed, so each version rule fails in exactly one place.
 */
import { atLeast } from '../../protocol/versions.ts';
import { boolean, CREATED_SCHEMA, integer, nullableStringList, perVersion, string, timestamp } from './schema-parts.ts';

const stringMap = { type: 'object', additionalProperties: string } as const;
const nullableObject = { type: ['object', 'null'] } as const;

export const CONTAINER_STATES = ['created', 'restarting', 'running', 'paused', 'exited', 'dead'] as const;

/** POST /containers/create → 201 {Id, Warnings} (spec/1 §2.3, last line). */
export const CREATE_RESPONSE_SCHEMA = CREATED_SCHEMA;

/** Endpoint settings: one entry of NetworkSettings.Networks (spec/1 §2.1). */
const ENDPOINT_SETTINGS_SCHEMA = {
  type: 'object',
  required: [
    'IPAMConfig', 'Links', 'Aliases', 'NetworkID', 'EndpointID', 'Gateway', 'IPAddress', 'IPPrefixLen',
    'IPv6Gateway', 'GlobalIPv6Address', 'GlobalIPv6PrefixLen', 'MacAddress',
  ],
  properties: {
    IPAMConfig: nullableObject,
    Links: nullableStringList,
    Aliases: nullableStringList,
    NetworkID: string,
    EndpointID: string,
    Gateway: string,
    IPAddress: string,
    IPPrefixLen: integer,
    IPv6Gateway: string,
    GlobalIPv6Address: string,
    GlobalIPv6PrefixLen: integer,
    MacAddress: string,
  },
} as const;

const NETWORKS_SCHEMA = { type: 'object', additionalProperties: ENDPOINT_SETTINGS_SCHEMA } as const;

/** A mount (spec/1 §2.1): Name, Driver and Propagation from 1.23. */
function mountSchema(version: string) {
  return {
    type: 'object',
    required: ['Source', 'Destination', 'Mode', 'RW', ...(atLeast(version, '1.23') ? ['Name', 'Driver', 'Propagation'] : [])],
    properties: { Name: string, Source: string, Destination: string, Driver: string, Mode: string, RW: boolean, Propagation: string },
  };
}

/** An item of GET /containers/json (spec/1 §2.1). SizeRw/SizeRootFs: see containers.list.size. */
export const containerSummarySchema = perVersion((version: string) => {
  const from121 = atLeast(version, '1.21');
  const from123 = atLeast(version, '1.23');
  return {
    type: 'object',
    required: [
      'Id', 'Names', 'Image', 'Command', 'Created', 'Status', 'Ports', 'Labels',
      ...(from121 ? ['ImageID'] : []),
      ...(from123 ? ['State', 'HostConfig', 'NetworkSettings', 'Mounts'] : []),
    ],
    properties: {
      Id: { type: 'string', minLength: 1 },
      Names: { type: 'array', items: { type: 'string', pattern: '^/' } },
      Image: string,
      ImageID: string,
      Command: string,
      Created: integer,
      State: { enum: CONTAINER_STATES },
      Status: string,
      Ports: {
        type: 'array',
        items: {
          type: 'object',
          required: ['PrivatePort', 'Type'],
          properties: { PrivatePort: integer, PublicPort: integer, Type: { enum: ['tcp', 'udp'] } },
        },
      },
      Labels: stringMap,
      SizeRw: integer,
      SizeRootFs: integer,
      HostConfig: { type: 'object', required: ['NetworkMode'], properties: { NetworkMode: string } },
      NetworkSettings: { type: 'object', required: ['Networks'], properties: { Networks: NETWORKS_SCHEMA } },
      Mounts: { type: 'array', items: mountSchema(version) },
    },
  };
});

/**
 * The creation Config fields the inspect object carries back (spec/1 §2.2). Every creation field is
 * optional (§2.3), and dockerd leaves empty MacAddress, NetworkDisabled, ExposedPorts and StopSignal
 * out of inspect (Go omitempty): those are typed when present, the rest required.
 */
export const INSPECT_CONFIG_SCHEMA = {
  type: 'object',
  required: [
    'Hostname', 'Domainname', 'User', 'AttachStdin', 'AttachStdout', 'AttachStderr', 'Tty', 'OpenStdin', 'StdinOnce',
    'Env', 'Cmd', 'Entrypoint', 'Image', 'Labels', 'Volumes', 'WorkingDir', 'OnBuild',
  ],
  properties: {
    Hostname: string,
    Domainname: string,
    User: string,
    AttachStdin: boolean,
    AttachStdout: boolean,
    AttachStderr: boolean,
    Tty: boolean,
    OpenStdin: boolean,
    StdinOnce: boolean,
    Env: nullableStringList,
    Cmd: nullableStringList,
    Entrypoint: nullableStringList,
    Image: string,
    Labels: { type: ['object', 'null'], additionalProperties: string },
    Volumes: nullableObject,
    WorkingDir: string,
    NetworkDisabled: boolean,
    MacAddress: string,
    ExposedPorts: nullableObject,
    StopSignal: string,
    OnBuild: nullableStringList,
  },
} as const;

/**
 * A "(timestamp)" of inspect's State (spec/1 §2.2): unlike Created ("RFC 3339 with nanoseconds") its
 * form is not given, nor what it holds before the container started or finished.
 */
const stateTimestamp = { type: ['string', 'integer'] } as const;

/** Inspect State (spec/1 §2.2): Status from 1.21, Dead at 1.25. */
function stateSchema(version: string) {
  return {
    type: 'object',
    required: [
      'Error', 'ExitCode', 'FinishedAt', 'OOMKilled', 'Paused', 'Pid', 'Restarting', 'Running', 'StartedAt',
      ...(atLeast(version, '1.21') ? ['Status'] : []),
      ...(atLeast(version, '1.25') ? ['Dead'] : []),
    ],
    properties: {
      Error: string,
      ExitCode: integer,
      FinishedAt: stateTimestamp,
      OOMKilled: boolean,
      Dead: boolean,
      Paused: boolean,
      Pid: integer,
      Restarting: boolean,
      Running: boolean,
      StartedAt: stateTimestamp,
      Status: { enum: CONTAINER_STATES },
    },
  };
}

/** NetworkSettings, typed only: which fields a version shows is containers.inspect.network-settings. */
const NETWORK_SETTINGS_SCHEMA = {
  type: 'object',
  properties: {
    Bridge: string,
    SandboxID: string,
    HairpinMode: boolean,
    LinkLocalIPv6Address: string,
    LinkLocalIPv6PrefixLen: integer,
    Ports: nullableObject,
    PortMapping: nullableObject,
    SandboxKey: string,
    SecondaryIPAddresses: { type: ['array', 'null'] },
    SecondaryIPv6Addresses: { type: ['array', 'null'] },
    EndpointID: string,
    Gateway: string,
    GlobalIPv6Address: string,
    GlobalIPv6PrefixLen: integer,
    IPAddress: string,
    IPPrefixLen: integer,
    IPv6Gateway: string,
    MacAddress: string,
    Networks: NETWORKS_SCHEMA,
  },
} as const;

/** The flat NetworkSettings fields every version before 1.21 shows (spec/1 §2.2). */
export const FLAT_NETWORK_FIELDS = ['Bridge', 'Gateway', 'IPAddress', 'IPPrefixLen', 'MacAddress', 'PortMapping', 'Ports'] as const;
/** The flat fields still returned from 1.21, deprecated in favour of Networks. */
export const DEPRECATED_FLAT_NETWORK_FIELDS = ['Gateway', 'IPAddress', 'IPPrefixLen', 'MacAddress'] as const;

/**
 * Inspect's Config as the spec types it: the creation fields of §2.3 with their creation types (Cmd and
 * Entrypoint "string or array of string", StopSignal "string or unsigned integer"; null where nothing
 * was given), OnBuild untyped (§2.3 does not list it).
 */
const SPEC_INSPECT_CONFIG_SCHEMA = {
  ...INSPECT_CONFIG_SCHEMA,
  properties: {
    ...INSPECT_CONFIG_SCHEMA.properties,
    Cmd: { type: ['string', 'array', 'null'], items: string },
    Entrypoint: { type: ['string', 'array', 'null'], items: string },
    StopSignal: { anyOf: [string, { type: 'integer', minimum: 0 }] },
    OnBuild: {},
  },
} as const;

/** GET /containers/{id}/json (spec/1 §2.2). */
export const containerInspectSchema = perVersion((version: string) => {
  return {
    type: 'object',
    required: [
      'AppArmorProfile', 'Args', 'Config', 'Created', 'Driver', 'ExecIDs', 'HostConfig', 'HostnamePath', 'HostsPath',
      'LogPath', 'Id', 'Image', 'MountLabel', 'Name', 'NetworkSettings', 'Path', 'ProcessLabel', 'ResolvConfPath',
      'RestartCount', 'State', 'Mounts',
    ],
    properties: {
      AppArmorProfile: string,
      Args: { type: 'array', items: string },
      Config: SPEC_INSPECT_CONFIG_SCHEMA,
      Created: timestamp,
      Driver: string,
      ExecDriver: string,
      ExecIDs: nullableStringList,
      HostConfig: { type: 'object' },
      HostnamePath: string,
      HostsPath: string,
      LogPath: string,
      Id: { type: 'string', minLength: 1 },
      Image: string,
      MountLabel: string,
      Name: { type: 'string', pattern: '^/' },
      NetworkSettings: NETWORK_SETTINGS_SCHEMA,
      Path: string,
      ProcessLabel: string,
      ResolvConfPath: string,
      RestartCount: integer,
      State: stateSchema(version),
      Mounts: { type: 'array', items: mountSchema(version) },
      Volumes: { type: 'object' },
      VolumesRW: { type: 'object', additionalProperties: boolean },
      SizeRw: integer,
      SizeRootFs: integer,
    },
  };
});

/** GET /containers/{id}/top (spec/1 §2.4). */
export const TOP_SCHEMA = {
  type: 'object',
  required: ['Titles', 'Processes'],
  properties: {
    Titles: { type: 'array', items: string },
    Processes: { type: 'array', items: { type: 'array', items: string } },
  },
} as const;

/** Changes kinds (spec/1 §2.4). */
export const CHANGE_KIND = { modify: 0, add: 1, delete: 2 } as const;

/** GET /containers/{id}/changes (spec/1 §2.4). */
export const CHANGES_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['Path', 'Kind'],
    properties: { Path: string, Kind: { enum: Object.values(CHANGE_KIND) } },
  },
} as const;

/** POST /containers/{id}/wait (spec/1 §2.4). */
export const WAIT_SCHEMA = {
  type: 'object',
  required: ['StatusCode'],
  properties: { StatusCode: integer },
} as const;
