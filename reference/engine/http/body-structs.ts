/**
 * The Go structs dockerd decodes request bodies into (moby's api/types at 20.10), one table each: the
 * JSON name of every field and its Go type, for json-fields.ts' decoder. Names are dockerd's, so that
 * a refusal names the field as dockerd does; the spec's own fields dockerd dropped (LxcConf,
 * MaximumIOps, MaximumIOBps) are declared too, and StopSignal takes what spec/1 §2.3 allows. Fields the
 * spec does not define are dockerd's (`dockerField`): the strict personality ignores them.
 */
import {
  dockerField,
  goAny,
  goBool,
  goEmptyStruct,
  goInt,
  goInt64,
  goString,
  goStringList,
  goStringMap,
  goStruct,
  goUint,
  goUint16,
  goUint32,
  goUint64,
  mapOf,
  sliceOf,
  type GoField,
  type GoType,
} from './json-fields.ts';

/** strslice.StrSlice: a list of strings, or one string standing for a one-word list; anything else is refused as into a string. */
export const goStrSlice: GoType = {
  kind: 'custom',
  name: 'string',
  decode: (value) => (typeof value === 'string' ? [value] : Array.isArray(value) && value.every((word) => typeof word === 'string') ? value : undefined),
};

/** StopSignal: a name, or (spec/1 §2.3) an unsigned integer, kept as its decimal text. */
const goStopSignal: GoType = {
  kind: 'custom',
  name: 'string',
  decode: (value) => (typeof value === 'string' ? value : typeof value === 'number' && Number.isInteger(value) && value >= 0 ? String(value) : undefined),
};

/** LxcConf (spec/1 §2.3, up to 1.21): an object, or the list of {Key, Value} older clients send; kept as given. */
const goLxcConf: GoType = {
  kind: 'custom',
  name: 'runconfig.LxcConfig',
  decode: (value) => (typeof value === 'object' && value !== null ? value : undefined),
};

const GO_DURATION = { ...goInt64, name: 'time.Duration' } as GoType;

const HEALTH_CONFIG = goStruct('*container.HealthConfig', { Test: goStringList, Interval: GO_DURATION, Timeout: GO_DURATION, StartPeriod: GO_DURATION, Retries: goInt });

/** container.Config: what create (at its top level) and commit take. */
const CONFIG_FIELDS = {
  Hostname: goString,
  Domainname: goString,
  User: goString,
  AttachStdin: goBool,
  AttachStdout: goBool,
  AttachStderr: goBool,
  ExposedPorts: mapOf(goEmptyStruct, 'nat.PortSet'),
  Tty: goBool,
  OpenStdin: goBool,
  StdinOnce: goBool,
  Env: goStringList,
  Cmd: goStrSlice,
  Healthcheck: dockerField(HEALTH_CONFIG),
  ArgsEscaped: dockerField(goBool),
  Image: goString,
  Volumes: mapOf(goEmptyStruct),
  WorkingDir: goString,
  Entrypoint: goStrSlice,
  NetworkDisabled: goBool,
  MacAddress: goString,
  OnBuild: dockerField(goStringList),
  Labels: goStringMap,
  StopSignal: { type: goStopSignal, since: '1.21' },
  StopTimeout: dockerField(goInt),
  Shell: dockerField(goStrSlice),
};

const WEIGHT_DEVICE = sliceOf(goStruct('*blkiodev.WeightDevice', { Path: goString, Weight: goUint16 }));
const THROTTLE_DEVICE = sliceOf(goStruct('*blkiodev.ThrottleDevice', { Path: goString, Rate: goUint64 }));
export const RESTART_POLICY = goStruct('container.RestartPolicy', { Name: goString, MaximumRetryCount: goInt });

/** container.Resources: part of HostConfig, and what an update sends at its top level. */
const RESOURCES_FIELDS = {
  CpuShares: goInt64,
  Memory: goInt64,
  NanoCpus: dockerField(goInt64),
  CgroupParent: goString,
  BlkioWeight: goUint16,
  BlkioWeightDevice: WEIGHT_DEVICE,
  BlkioDeviceReadBps: { type: THROTTLE_DEVICE, since: '1.22' },
  BlkioDeviceWriteBps: { type: THROTTLE_DEVICE, since: '1.22' },
  BlkioDeviceReadIOps: { type: THROTTLE_DEVICE, since: '1.22' },
  BlkioDeviceWriteIOps: { type: THROTTLE_DEVICE, since: '1.22' },
  CpuPeriod: { type: goInt64, since: '1.19' },
  CpuQuota: { type: goInt64, since: '1.19' },
  CpuRealtimePeriod: dockerField(goInt64),
  CpuRealtimeRuntime: dockerField(goInt64),
  CpusetCpus: goString,
  CpusetMems: goString,
  Devices: sliceOf(goStruct('container.DeviceMapping', { PathOnHost: goString, PathInContainer: goString, CgroupPermissions: goString })),
  DeviceCgroupRules: dockerField(goStringList),
  DeviceRequests: dockerField(sliceOf(goAny)),
  KernelMemory: { type: goInt64, since: '1.21' },
  KernelMemoryTCP: dockerField(goInt64),
  MemoryReservation: { type: goInt64, since: '1.21' },
  MemorySwap: goInt64,
  MemorySwappiness: goInt64,
  OomKillDisable: goBool,
  PidsLimit: { type: goInt64, since: '1.23' },
  Ulimits: sliceOf(goStruct('*units.Ulimit', { Name: goString, Hard: goInt64, Soft: goInt64 })),
  CpuCount: dockerField(goInt64),
  CpuPercent: goInt64,
  IOMaximumIOps: dockerField(goUint64),
  IOMaximumBandwidth: dockerField(goUint64),
  MaximumIOps: goUint64,
  MaximumIOBps: goUint64,
};

const MOUNT = goStruct('mount.Mount', {
  Type: goString,
  Source: goString,
  Target: goString,
  ReadOnly: goBool,
  Consistency: goString,
  BindOptions: goStruct('*mount.BindOptions', { Propagation: goString, NonRecursive: goBool }),
  VolumeOptions: goStruct('*mount.VolumeOptions', {
    NoCopy: goBool,
    Labels: goStringMap,
    DriverConfig: goStruct('*mount.Driver', { Name: goString, Options: goStringMap }),
  }),
  TmpfsOptions: goStruct('*mount.TmpfsOptions', { SizeBytes: goInt64, Mode: goUint32 }),
});

/** container.HostConfig (spec/1 §2.3), its fields marked with the version the spec adds them at. */
const HOST_CONFIG_FIELDS: Record<string, GoType | GoField> = {
  ...RESOURCES_FIELDS,
  Binds: goStringList,
  ContainerIDFile: dockerField(goString),
  LogConfig: goStruct('container.LogConfig', { Type: goString, Config: goStringMap }),
  NetworkMode: goString,
  PortBindings: mapOf(sliceOf(goStruct('nat.PortBinding', { HostIp: dockerField(goString), HostPort: goString })), 'nat.PortMap'),
  RestartPolicy: RESTART_POLICY,
  AutoRemove: { type: goBool, since: '1.25' },
  VolumeDriver: { type: goString, since: '1.21' },
  VolumesFrom: goStringList,
  CapAdd: goStrSlice,
  CapDrop: goStrSlice,
  CgroupnsMode: dockerField(goString),
  Dns: goStringList,
  DnsOptions: { type: goStringList, since: '1.21' },
  DnsSearch: goStringList,
  ExtraHosts: goStringList,
  GroupAdd: { type: goStringList, since: '1.20' },
  IpcMode: dockerField(goString),
  Cgroup: dockerField(goString),
  Links: goStringList,
  OomScoreAdj: { type: goInt, since: '1.21' },
  PidMode: goString,
  Privileged: goBool,
  PublishAllPorts: goBool,
  ReadonlyRootfs: goBool,
  SecurityOpt: goStringList,
  StorageOpt: { type: goStringMap, since: '1.24' },
  Tmpfs: dockerField(goStringMap),
  UTSMode: dockerField(goString),
  UsernsMode: { type: goString, since: '1.25' },
  ShmSize: { type: goInt64, since: '1.25' },
  Sysctls: { type: goStringMap, since: '1.24' },
  Runtime: dockerField(goString),
  ConsoleSize: dockerField(sliceOf(goUint)),
  Isolation: dockerField(goString),
  Mounts: dockerField(sliceOf(MOUNT)),
  MaskedPaths: dockerField(goStringList),
  ReadonlyPaths: dockerField(goStringList),
  Init: dockerField(goBool),
  LxcConf: goLxcConf,
};

export const HOST_CONFIG = goStruct('container.HostConfig', HOST_CONFIG_FIELDS);

/** The names of HostConfig's fields, which dockerd also reads at the top level of a create body. */
export const HOST_CONFIG_FIELD_NAMES: readonly string[] = Object.keys(HOST_CONFIG_FIELDS);

const ENDPOINT_SETTINGS = goStruct('*network.EndpointSettings', {
  IPAMConfig: goStruct('*network.EndpointIPAMConfig', { IPv4Address: goString, IPv6Address: goString, LinkLocalIPs: goStringList }),
  Links: goStringList,
  Aliases: goStringList,
  NetworkID: dockerField(goString),
  EndpointID: dockerField(goString),
  Gateway: dockerField(goString),
  IPAddress: dockerField(goString),
  IPPrefixLen: dockerField(goInt),
  IPv6Gateway: dockerField(goString),
  GlobalIPv6Address: dockerField(goString),
  GlobalIPv6PrefixLen: dockerField(goInt),
  MacAddress: dockerField(goString),
  DriverOpts: dockerField(goStringMap),
});

/** POST /containers/create: the config with HostConfig and NetworkingConfig beside it (spec/1 §2.3 marks it 1.25; §9.4 has static addresses at create from 1.22, which only it gives). */
export const CONTAINER_CONFIG_WRAPPER = goStruct('runconfig.ContainerConfigWrapper', {
  // dockerd's wrapper embeds a HostConfig too, whose fields it reads at the top level (API 1.1x's
  // create): none is the spec's
  ...Object.fromEntries(Object.entries(HOST_CONFIG_FIELDS).map(([name, field]) => [name, dockerField('type' in field ? field.type : field)])),
  ...CONFIG_FIELDS,
  HostConfig: HOST_CONFIG,
  NetworkingConfig: { type: goStruct('*network.NetworkingConfig', { EndpointsConfig: mapOf(ENDPOINT_SETTINGS) }), since: '1.22' },
});

/** POST /commit: dockerd decodes its body with create's wrapper too, and keeps the config. */
export const COMMIT_CONFIG = goStruct('runconfig.ContainerConfigWrapper', CONFIG_FIELDS);

/** POST /containers/{id}/update */
export const UPDATE_CONFIG = goStruct('container.UpdateConfig', { ...RESOURCES_FIELDS, RestartPolicy: { type: RESTART_POLICY, since: '1.23' } });

export const EXEC_CONFIG = goStruct('types.ExecConfig', {
  User: dockerField(goString),
  Privileged: dockerField(goBool),
  Tty: goBool,
  AttachStdin: goBool,
  AttachStderr: goBool,
  AttachStdout: goBool,
  Detach: dockerField(goBool),
  DetachKeys: goString,
  Env: dockerField(goStringList),
  WorkingDir: dockerField(goString),
  Cmd: goStrSlice,
});

export const EXEC_START_CHECK = goStruct('types.ExecStartCheck', { Detach: goBool, Tty: goBool });

const IPAM = goStruct('*network.IPAM', {
  Driver: goString,
  Options: goStringMap,
  Config: sliceOf(goStruct('network.IPAMConfig', { Subnet: goString, IPRange: goString, Gateway: goString, AuxiliaryAddresses: goStringMap })),
});

export const NETWORK_CREATE_REQUEST = goStruct('types.NetworkCreateRequest', {
  Name: goString,
  CheckDuplicate: goBool,
  Driver: goString,
  Scope: dockerField(goString),
  EnableIPv6: goBool,
  IPAM,
  Internal: goBool,
  Attachable: dockerField(goBool),
  Ingress: dockerField(goBool),
  ConfigOnly: dockerField(goBool),
  ConfigFrom: dockerField(goStruct('*network.ConfigReference', { Network: goString })),
  Options: goStringMap,
  Labels: goStringMap,
});

export const NETWORK_CONNECT = goStruct('types.NetworkConnect', { Container: goString, EndpointConfig: ENDPOINT_SETTINGS });
export const NETWORK_DISCONNECT = goStruct('types.NetworkDisconnect', { Container: goString, Force: goBool });

export const VOLUME_CREATE_BODY = goStruct('volume.VolumeCreateBody', { Name: goString, Driver: goString, DriverOpts: goStringMap, Labels: goStringMap });

/** POST /auth: the fields are lower case on the wire. */
export const AUTH_CONFIG = goStruct('types.AuthConfig', {
  username: goString,
  password: goString,
  auth: goString,
  email: goString,
  serveraddress: goString,
  identitytoken: goString,
  registrytoken: goString,
});

/** POST /plugins/pull: the privileges the client accepts */
export const PLUGIN_PRIVILEGES = sliceOf(goStruct('types.PluginPrivilege', { Name: goString, Description: goString, Value: goStringList }), 'types.PluginPrivileges');

/** POST /build's `buildargs` (map[string]*string: a null value is an argument without one) and `labels` */
export const BUILD_ARGS = mapOf({ kind: 'custom', name: 'string', decode: (value) => (typeof value === 'string' ? value : undefined) });
export const BUILD_LABELS = goStringMap;

/** POST /containers/{id}/copy (up to 1.23) */
export const COPY_CONFIG = goStruct('types.CopyConfig', { Resource: goString });

const SERVICE_RESTART_POLICY = goStruct('*swarm.RestartPolicy', { Condition: goString, Delay: GO_DURATION, MaxAttempts: goUint64, Window: GO_DURATION });

const SERVICE_CONTAINER_SPEC = goStruct('*swarm.ContainerSpec', {
  Image: goString,
  Labels: goStringMap,
  Command: goStringList,
  Args: goStringList,
  Hostname: goString,
  Env: goStringList,
  Dir: goString,
  User: goString,
  Groups: goStringList,
  TTY: goBool,
  OpenStdin: goBool,
  ReadOnly: goBool,
  Mounts: sliceOf(MOUNT),
  StopSignal: goString,
  StopGracePeriod: GO_DURATION,
  Healthcheck: HEALTH_CONFIG,
  Hosts: goStringList,
  DNSConfig: goAny,
  Secrets: sliceOf(goStruct('*swarm.SecretReference', { File: goStruct('*swarm.SecretReferenceFileTarget', { Name: goString, UID: goString, GID: goString, Mode: goUint32 }), SecretID: goString, SecretName: goString })),
  Configs: sliceOf(goAny),
  Isolation: goString,
  Init: goBool,
  Sysctls: goStringMap,
  CapabilityAdd: goStringList,
  CapabilityDrop: goStringList,
  Ulimits: sliceOf(goAny),
  Privileges: goAny,
});

/** A network a service's tasks attach to, by name or id. */
const NETWORK_ATTACHMENT = goStruct('swarm.NetworkAttachmentConfig', { Target: goString, Aliases: goStringList, DriverOpts: goStringMap });

/** swarm.ServiceSpec (spec/2 §2.7): the parts the reference only stores are kept as given. */
export const SERVICE_SPEC = goStruct('swarm.ServiceSpec', {
  Name: goString,
  Labels: goStringMap,
  TaskTemplate: goStruct('swarm.TaskSpec', {
    ContainerSpec: SERVICE_CONTAINER_SPEC,
    PluginSpec: goAny,
    NetworkAttachmentSpec: goAny,
    Resources: goAny,
    RestartPolicy: SERVICE_RESTART_POLICY,
    Placement: goAny,
    Networks: sliceOf(NETWORK_ATTACHMENT),
    LogDriver: goAny,
    ForceUpdate: goUint64,
    Runtime: goString,
  }),
  Mode: goStruct('swarm.ServiceMode', {
    Replicated: goStruct('*swarm.ReplicatedService', { Replicas: goUint64 }),
    Global: goStruct('*swarm.GlobalService', {}),
  }),
  UpdateConfig: goAny,
  RollbackConfig: goAny,
  Networks: sliceOf(NETWORK_ATTACHMENT),
  EndpointSpec: goAny,
});
