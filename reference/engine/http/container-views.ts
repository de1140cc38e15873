/**
 * Containers as each API version shows them: the list item (spec/1 §2.1) and the inspect object
 * (§2.2). Fields appear and disappear here, by version; the model knows none of this.
 */
import type { Dialect } from '../../../protocol/dialect.ts';
import { before } from '../../../protocol/versions.ts';
import type { Container, EndpointSettings } from '../model/containers/container.ts';
import type { ContainerConfig } from '../model/containers/container-config.ts';
import type { ContainerSize } from '../model/containers/container-store.ts';
import { listedPorts } from '../model/containers/container-ports.ts';
import type { PortMap } from '../model/containers/host-config.ts';
import type { ContainerMount } from '../model/containers/mount-specs.ts';
import { STORAGE_DRIVER } from '../model/common/daemon-build.ts';
import { formatTimestamp, unixSeconds } from '../model/common/timestamps.ts';
import type { HostConfig } from '../model/containers/host-config.ts';
import type { AnswerShape, Personality } from './personality.ts';
import { volumeMountpoint } from './volume-views.ts';

/** The execution driver dockerd named in inspect until it dropped the field after 1.21. */
const EXEC_DRIVER = 'native-0.2';

export function containerSummary(container: Container, shape: AnswerShape, now: Date, size?: ContainerSize): Record<string, unknown> {
  const { version, personality } = shape;
  const shows = (since: string) => personality.shows(version, since);
  return {
    Id: container.id,
    Names: [container.name],
    Image: container.config.Image,
    ...(shows('1.21') && { ImageID: container.imageId }),
    Command: commandText(container),
    Created: unixSeconds(container.created),
    Ports: listedPorts(container.publishedPorts),
    ...(size && { SizeRw: size.rw, SizeRootFs: size.rootFs }),
    Labels: container.config.Labels,
    ...(shows('1.23') && { State: container.state.Status }),
    Status: personality.statusText(container.state, now),
    ...(shows('1.23') && { HostConfig: { NetworkMode: container.hostConfig.NetworkMode } }),
    // §9.4 lists the container network list at 1.22, though §2.1 marks NetworkSettings [1.23+].
    ...(shows('1.22') && { NetworkSettings: { Networks: container.networks } }),
    ...(shows('1.23') && { Mounts: mountsView(container.mounts, shape) }),
  };
}

/** dockerd's Command column: path and arguments, an argument with a space in single quotes. */
function commandText(container: Container): string {
  const args = container.args.map((arg) => (arg.includes(' ') ? `'${arg}'` : arg));
  return [container.path, ...args].join(' ');
}

/** `execIds`: the exec instances that have not ended ("array or null": dockerd shows none as null). */
export function containerInspect(container: Container, shape: AnswerShape, execIds: string[], size?: ContainerSize): Record<string, unknown> {
  const { version, dialect, personality } = shape;
  const { Status, Dead, ...state } = container.state;
  return {
    Id: container.id,
    Created: formatTimestamp(container.created),
    Path: container.path,
    Args: container.args,
    State: {
      ...(personality.shows(version, '1.21') && { Status }),
      ...state,
      ...(personality.shows(version, '1.25') && { Dead }),
    },
    Image: container.imageId,
    ResolvConfPath: '',
    HostnamePath: '',
    HostsPath: '',
    LogPath: '',
    Name: container.name,
    RestartCount: container.restartCount,
    Driver: STORAGE_DRIVER,
    ...(before(version, '1.22') && { ExecDriver: EXEC_DRIVER }),
    MountLabel: '',
    ProcessLabel: '',
    AppArmorProfile: '',
    ExecIDs: personality.arrayOrNull(personality.unordered(execIds)),
    HostConfig: hostConfigView(container.hostConfig, personality),
    ...(size && { SizeRw: size.rw, SizeRootFs: size.rootFs }),
    Mounts: mountsView(container.mounts, shape),
    Config: configView(container.config),
    NetworkSettings: networkSettings(container.networks, container.publishedPorts ?? {}, version),
    ...(before(version, '1.19') && volumesMaps(container.mounts, dialect)),
  };
}

/** Where a mount's files are on the host: a volume's directory, or a bind's path. */
function mountSource(mount: ContainerMount, dialect: Dialect): string {
  return mount.volume ? volumeMountpoint(mount.volume, dialect) : mount.source;
}

/** Name, Driver and Propagation from 1.23 (spec/1 §2.1), with dockerd's Type; a bind has no Name and no Driver, as on dockerd. */
function mountsView(mounts: readonly ContainerMount[], { version, dialect, personality }: AnswerShape): Record<string, unknown>[] {
  const newer = personality.shows(version, '1.23');
  return personality.unordered(mounts).map((mount) => ({
    ...(newer && { Type: mount.type }),
    ...(newer && mount.volume && { Name: mount.volume.name }),
    Source: mountSource(mount, dialect),
    Destination: mount.destination,
    ...(newer && mount.volume && { Driver: mount.volume.driver }),
    Mode: mount.mode,
    RW: mount.rw,
    ...(newer && { Propagation: mount.propagation }),
  }));
}

/** The maps inspect had before Mounts: destination to host path, and destination to whether it is writable. */
function volumesMaps(mounts: readonly ContainerMount[], dialect: Dialect): { Volumes: Record<string, string>; VolumesRW: Record<string, boolean> } {
  return {
    Volumes: Object.fromEntries(mounts.map((mount) => [mount.destination, mountSource(mount, dialect)])),
    VolumesRW: Object.fromEntries(mounts.map((mount) => [mount.destination, mount.rw])),
  };
}

/** dockerd leaves an unset StopSignal out (Go omitempty). */
function configView({ StopSignal, ...config }: ContainerConfig): Record<string, unknown> {
  return StopSignal ? { ...config, StopSignal } : config;
}

/** Before 1.21 only the flat fields of the default bridge; from 1.21 the per-network map besides them. */
function networkSettings(networks: Record<string, EndpointSettings>, ports: PortMap, version: string): Record<string, unknown> {
  const bridge = networks.bridge;
  const flat = {
    Gateway: bridge?.Gateway ?? '',
    IPAddress: bridge?.IPAddress ?? '',
    IPPrefixLen: bridge?.IPPrefixLen ?? 0,
    MacAddress: bridge?.MacAddress ?? '',
  };
  if (before(version, '1.21')) return { Bridge: '', ...flat, PortMapping: null, Ports: ports };
  return {
    Bridge: '',
    SandboxID: '',
    HairpinMode: false,
    LinkLocalIPv6Address: '',
    LinkLocalIPv6PrefixLen: 0,
    Ports: ports,
    SandboxKey: '',
    SecondaryIPAddresses: null,
    SecondaryIPv6Addresses: null,
    EndpointID: bridge?.EndpointID ?? '',
    ...flat,
    GlobalIPv6Address: bridge?.GlobalIPv6Address ?? '',
    GlobalIPv6PrefixLen: bridge?.GlobalIPv6PrefixLen ?? 0,
    IPv6Gateway: bridge?.IPv6Gateway ?? '',
    Networks: networks,
  };
}

/** The container's HostConfig, its ulimits named as the personality spells them. */
function hostConfigView(hostConfig: HostConfig, personality: Personality): HostConfig {
  const ulimits = hostConfig.Ulimits as { Name: string }[] | null | undefined;
  if (!ulimits) return hostConfig;
  return { ...hostConfig, Ulimits: ulimits.map((ulimit) => ({ ...ulimit, Name: personality.ulimitName(ulimit.Name) })) };
}
