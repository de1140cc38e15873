/**
 * A container's HostConfig: the fields of the create body the engine knows, with its defaults.
 * Unknown fields of a request are dropped here (the API ignores unknown properties). The fields the
 * rules read are typed; the values of the others are kept as given until what uses them is modelled.
 */
import type { RestartPolicy } from './restart-manager.ts';

export const PREDEFINED_NETWORKS = ['bridge', 'host', 'none'] as const;

/** Names a network mode gives meaning to: no user network may take them (dockerd's IsPreDefinedNetwork). */
export function isPredefinedName(name: string): boolean {
  return (PREDEFINED_NETWORKS as readonly string[]).includes(name) || name === 'default' || name.startsWith('container:');
}

export interface PortBinding {
  HostIp: string;
  HostPort: string;
}

/** `80/tcp` to its bindings, null for an exposed port without one */
export type PortMap = Record<string, PortBinding[] | null>;

export interface LogConfig {
  Type: string;
  Config: Record<string, string>;
}

/** The resource limits a running container's update may change too. */
export interface Resources {
  Memory: number;
  MemorySwap: number;
  MemoryReservation: number;
  KernelMemory: number;
  /** -1: the kernel's default */
  MemorySwappiness: number;
  CpuShares: number;
  CpuPeriod: number;
  CpuQuota: number;
  CpusetCpus: string;
  CpusetMems: string;
  BlkioWeight: number;
  PidsLimit: number;
}

export type HostConfig = Record<string, unknown> &
  Resources & {
    NetworkMode: string;
    RestartPolicy: RestartPolicy;
    AutoRemove: boolean;
    OomScoreAdj: number;
    ReadonlyRootfs: boolean;
    ShmSize: number;
    LogConfig: LogConfig;
  };

const SHM_SIZE_DEFAULT = 64 * 1024 * 1024;

function defaults(): HostConfig {
  return {
    Binds: null,
    Links: null,
    Memory: 0,
    MemorySwap: 0,
    MemoryReservation: 0,
    KernelMemory: 0,
    CpuPercent: 0,
    CpuShares: 0,
    CpuPeriod: 0,
    CpuQuota: 0,
    CpusetCpus: '',
    CpusetMems: '',
    MaximumIOps: 0,
    MaximumIOBps: 0,
    BlkioWeight: 0,
    BlkioWeightDevice: null,
    BlkioDeviceReadBps: null,
    BlkioDeviceWriteBps: null,
    BlkioDeviceReadIOps: null,
    BlkioDeviceWriteIOps: null,
    MemorySwappiness: -1,
    OomKillDisable: false,
    OomScoreAdj: 0,
    PidMode: '',
    PidsLimit: 0,
    PortBindings: {},
    PublishAllPorts: false,
    Privileged: false,
    ReadonlyRootfs: false,
    Dns: [],
    DnsOptions: [],
    DnsSearch: [],
    ExtraHosts: null,
    VolumesFrom: null,
    CapAdd: null,
    CapDrop: null,
    GroupAdd: null,
    RestartPolicy: { Name: '', MaximumRetryCount: 0 },
    AutoRemove: false,
    UsernsMode: '',
    NetworkMode: 'default',
    Devices: [],
    Ulimits: null,
    Sysctls: {},
    SecurityOpt: null,
    StorageOpt: {},
    LogConfig: { Type: 'json-file', Config: {} },
    CgroupParent: '',
    VolumeDriver: '',
    ShmSize: SHM_SIZE_DEFAULT,
    UTSMode: '',
    Isolation: '',
    CpuRealtimePeriod: 0,
    CpuRealtimeRuntime: 0,
  };
}

/** Fields dockerd leaves out until they are given (Go omitempty): kept as given, absent otherwise. */
const KEPT_WHEN_GIVEN = ['Runtime', 'Init', 'Tmpfs'] as const;

/** The runtime dockerd names in HostConfig.Runtime once it has settled a container's settings. */
export const DEFAULT_RUNTIME = 'runc';

/**
 * The host settings of a container from those given. dockerd settles the runtime when a create gives a
 * HostConfig (absent, Runtime stays absent until the first start) and when a start does.
 */
export function completeHostConfig(given?: Partial<HostConfig>): HostConfig {
  const config = fromGiven(given ?? {});
  if (given !== undefined && !config.Runtime) config.Runtime = DEFAULT_RUNTIME;
  return config;
}

function fromGiven(given: Partial<HostConfig>): HostConfig {
  const config = defaults();
  for (const key of Object.keys(config)) {
    if (given[key] !== undefined && given[key] !== null) config[key] = structuredClone(given[key]);
  }
  for (const key of KEPT_WHEN_GIVEN) {
    if (given[key] !== undefined && given[key] !== null) config[key] = structuredClone(given[key]);
  }
  // A memory limit without a swap limit gets twice as much memory and swap, as dockerd gives it.
  if (config.Memory > 0 && config.MemorySwap === 0) config.MemorySwap = 2 * config.Memory;
  // The engine never keeps a zero size, an empty mode or an empty log type: each means "the default".
  if (!config.ShmSize) config.ShmSize = SHM_SIZE_DEFAULT;
  if (!config.NetworkMode) config.NetworkMode = 'default';
  if (!config.LogConfig.Type) config.LogConfig = { Type: 'json-file', Config: config.LogConfig.Config ?? {} };
  return config;
}

/** The networks a container joins for its network mode: none for `container:<id>`, which shares another's. */
export function networkNamesOf(networkMode: string): string[] {
  if (networkMode.startsWith('container:')) return [];
  return [networkMode === 'default' ? 'bridge' : networkMode];
}

/** The log drivers whose logs the engine can read back (spec/1 §4.1 logs). */
export function logsReadable(logConfig: LogConfig): boolean {
  return logConfig.Type === 'json-file' || logConfig.Type === 'journald';
}
