/**
 * What GET /info and GET /version report, as the engine's own values: counts from the stores, host
 * facts from Node, the time from the clock. Shaping per API version is the HTTP layer's business.
 */
import { readdir } from 'node:fs/promises';
import type { ContainerStore } from '../containers/container-store.ts';
import type { EventBus } from '../events/event-bus.ts';
import { BUILD_TIME, ENGINE_VERSION, GIT_COMMIT, GO_VERSION, STORAGE_DRIVER } from '../common/daemon-build.ts';
import { hostFacts } from '../common/host-facts.ts';
import type { ImageStore } from '../images/image-store.ts';

export interface DaemonInfo {
  ID: string;
  Containers: number;
  ContainersRunning: number;
  ContainersPaused: number;
  ContainersStopped: number;
  Images: number;
  Driver: string;
  DriverStatus: [string, string][];
  SystemStatus: [string, string][];
  Plugins: { Volume: string[]; Network: string[] };
  MemoryLimit: boolean;
  SwapLimit: boolean;
  KernelMemory: boolean;
  CpuCfsPeriod: boolean;
  CpuCfsQuota: boolean;
  OomKillDisable: boolean;
  IPv4Forwarding: boolean;
  Debug: boolean;
  ExperimentalBuild: boolean;
  NFd: number;
  NGoroutines: number;
  SystemTime: Date;
  NEventsListener: number;
  KernelVersion: string;
  OperatingSystem: string;
  OSType: string;
  Architecture: string;
  IndexServerAddress: string;
  RegistryConfig: {
    IndexConfigs: Record<string, { Name: string; Mirrors: string[]; Secure: boolean; Official: boolean }>;
    InsecureRegistryCIDRs: string[];
  };
  InitPath: string;
  InitSha1: string;
  NCPU: number;
  MemTotal: number;
  Name: string;
  Labels: string[];
  ServerVersion: string;
  ClusterStore: string;
  CgroupDriver: string;
  SecurityOptions: string[];
  HttpProxy: string;
  HttpsProxy: string;
  NoProxy: string;
}

export interface DaemonVersion {
  Version: string;
  GitCommit: string;
  GoVersion: string;
  Os: string;
  Arch: string;
  KernelVersion: string;
  BuildTime: string;
  Experimental: boolean;
}

export class SystemInfo {
  constructor(
    private readonly containers: ContainerStore,
    private readonly images: ImageStore,
    private readonly events: EventBus,
    private readonly clock: () => Date,
  ) {}

  async info(): Promise<DaemonInfo> {
    const host = hostFacts();
    return {
      ID: host.daemonId,
      ...this.containerCounts(),
      Images: this.images.count,
      Driver: STORAGE_DRIVER,
      DriverStatus: [],
      SystemStatus: [],
      Plugins: { Volume: ['local'], Network: ['bridge', 'host', 'null'] },
      // The reference models every resource control, so it claims the kernel features behind them.
      MemoryLimit: true,
      SwapLimit: true,
      KernelMemory: true,
      CpuCfsPeriod: true,
      CpuCfsQuota: true,
      OomKillDisable: true,
      IPv4Forwarding: true,
      Debug: false,
      ExperimentalBuild: false,
      NFd: await openFileCount(),
      NGoroutines: process.getActiveResourcesInfo().length,
      SystemTime: this.clock(),
      NEventsListener: this.events.listenerCount,
      KernelVersion: host.kernelVersion,
      OperatingSystem: host.operatingSystem,
      OSType: 'linux',
      Architecture: host.machine,
      IndexServerAddress: 'https://index.docker.io/v1/',
      RegistryConfig: {
        IndexConfigs: { 'docker.io': { Name: 'docker.io', Mirrors: [], Secure: true, Official: true } },
        InsecureRegistryCIDRs: ['127.0.0.0/8'],
      },
      InitPath: '',
      InitSha1: '',
      NCPU: host.ncpu,
      MemTotal: host.memTotal,
      Name: host.hostname,
      Labels: [],
      ServerVersion: ENGINE_VERSION,
      ClusterStore: '',
      CgroupDriver: 'cgroupfs',
      SecurityOptions: [],
      HttpProxy: '',
      HttpsProxy: '',
      NoProxy: '',
    };
  }

  version(): DaemonVersion {
    const host = hostFacts();
    return {
      Version: ENGINE_VERSION,
      GitCommit: GIT_COMMIT,
      GoVersion: GO_VERSION,
      Os: 'linux',
      Arch: host.goArch,
      KernelVersion: host.kernelVersion,
      BuildTime: BUILD_TIME,
      Experimental: false,
    };
  }

  /** A paused container is counted as paused, not running; everything not running is stopped. */
  private containerCounts() {
    let running = 0;
    let paused = 0;
    for (const container of this.containers) {
      if (container.state.Paused) paused++;
      else if (container.state.Running) running++;
    }
    const total = this.containers.size;
    return { Containers: total, ContainersRunning: running, ContainersPaused: paused, ContainersStopped: total - running - paused };
  }
}

/** Open file descriptors of this process, where the platform lists them (Linux); 0 elsewhere. */
async function openFileCount(): Promise<number> {
  try {
    return (await readdir('/proc/self/fd')).length;
  } catch {
    return 0;
  }
}
