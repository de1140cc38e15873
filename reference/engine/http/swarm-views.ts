/**
 * Swarm objects in Docker's shapes (spec/2 §2.7 and §2.8, and dockerd's where the spec says "not
 * shown"): services, tasks, the node, the swarm, secrets, and the Swarm section of GET /info. dockerd shows
 * them alike at every version it serves them.
 */
import { ENGINE_VERSION } from '../model/common/daemon-build.ts';
import { hostFacts } from '../model/common/host-facts.ts';
import type { SwarmData } from '../model/swarm/swarm-data-store.ts';
import type { Service } from '../model/swarm/service.ts';
import type { ServiceSpec, TaskSpec } from '../model/swarm/service-spec.ts';
import type { SwarmCluster, SwarmObjectMeta, SwarmSpec } from '../model/swarm/swarm-cluster.ts';
import type { Task } from '../model/swarm/task.ts';
import { formatTimestamp } from '../model/common/timestamps.ts';

function metaView(meta: SwarmObjectMeta) {
  return { ID: meta.id, Version: { Index: meta.versionIndex }, CreatedAt: formatTimestamp(meta.createdAt), UpdatedAt: formatTimestamp(meta.updatedAt) };
}

/** dockerd adds the container's isolation, the runtime and the force-update counter (0 unless given). */
function taskSpecView(spec: TaskSpec, service: boolean): Record<string, unknown> {
  return { ...spec, ContainerSpec: { ...spec.ContainerSpec, Isolation: 'default' }, ForceUpdate: spec.ForceUpdate ?? 0, ...(service && { Runtime: 'container' }) };
}

function serviceSpecView(spec: ServiceSpec): Record<string, unknown> {
  return { ...spec, TaskTemplate: taskSpecView(spec.TaskTemplate, true) };
}

export function serviceView(service: Service): Record<string, unknown> {
  return {
    ...metaView(service.meta),
    Spec: serviceSpecView(service.spec),
    ...(service.previousSpec && { PreviousSpec: serviceSpecView(service.previousSpec) }),
    Endpoint: { Spec: service.spec.EndpointSpec ?? {} },
  };
}

/**
 * A task as dockerd shows it, plus the fields spec/2 §2.8 lists that dockerd leaves out: Name (the
 * task name its filter matches), Instance (the slot; 0 for a global task), ServiceAnnotations (the
 * service's name and labels), NetworksAttachments and Endpoint (the service's endpoint spec).
 */
export function taskView(task: Task): Record<string, unknown> {
  const { status } = task;
  return {
    ...metaView(task.meta),
    Labels: {},
    Name: task.name,
    Spec: taskSpecView(task.spec, false),
    ServiceID: task.service.id,
    ...(task.slot !== undefined && { Slot: task.slot }),
    Instance: task.slot ?? 0,
    ServiceAnnotations: { Name: task.service.name, Labels: task.service.spec.Labels },
    NetworksAttachments: [],
    Endpoint: { Spec: task.service.spec.EndpointSpec ?? {} },
    NodeID: task.nodeId,
    Status: {
      Timestamp: formatTimestamp(status.timestamp),
      State: status.state,
      Message: status.message,
      ...(status.err && { Err: status.err }),
      ...(status.containerId && { ContainerStatus: { ContainerID: status.containerId, PID: status.pid, ExitCode: status.exitCode } }),
      PortStatus: {},
    },
    DesiredState: task.desiredState,
  };
}

/** The one node: a ready manager and leader, with the spec its last update gave (a name only when given). */
export function nodeView(swarm: SwarmCluster): Record<string, unknown> {
  const host = hostFacts();
  const { Name, ...spec } = swarm.nodeSpec;
  return {
    ...metaView(swarm.node),
    Spec: { ...(Name !== '' && { Name }), ...spec },
    Description: {
      Hostname: host.hostname,
      Platform: { Architecture: host.machine, OS: 'linux' },
      Resources: { NanoCPUs: host.ncpu * 1e9, MemoryBytes: host.memTotal },
      Engine: { EngineVersion: ENGINE_VERSION, Plugins: [{ Type: 'Network', Name: 'bridge' }, { Type: 'Network', Name: 'host' }, { Type: 'Network', Name: 'null' }, { Type: 'Network', Name: 'overlay' }, { Type: 'Volume', Name: 'local' }] },
    },
    Status: { State: 'ready', Addr: swarm.nodeAddress },
    ManagerStatus: { Leader: true, Reachability: 'reachable', Addr: swarm.managerAddress },
  };
}

/** The swarm's spec as dockerd shows it: the settings Go leaves out when zero (omitempty) are left out. */
function swarmSpecView(spec: SwarmSpec): Record<string, unknown> {
  const { Raft, Dispatcher, CAConfig } = spec;
  const set = (value: number) => value !== 0;
  return {
    ...spec,
    Raft: { ...(set(Raft.SnapshotInterval) && { SnapshotInterval: Raft.SnapshotInterval }), KeepOldSnapshots: Raft.KeepOldSnapshots, ...(set(Raft.LogEntriesForSlowFollowers) && { LogEntriesForSlowFollowers: Raft.LogEntriesForSlowFollowers }), ElectionTick: Raft.ElectionTick, HeartbeatTick: Raft.HeartbeatTick },
    Dispatcher: set(Dispatcher.HeartbeatPeriod) ? Dispatcher : {},
    CAConfig: { ...(set(CAConfig.NodeCertExpiry) && { NodeCertExpiry: CAConfig.NodeCertExpiry }), ...(CAConfig.ExternalCAs && { ExternalCAs: CAConfig.ExternalCAs }) },
  };
}

function clusterView(swarm: SwarmCluster): Record<string, unknown> {
  return { ...metaView(swarm.cluster), Spec: swarmSpecView(swarm.spec) };
}

/** GET /swarm: the cluster and the tokens that join nodes to it. */
export function swarmView(swarm: SwarmCluster): Record<string, unknown> {
  return { ...clusterView(swarm), JoinTokens: swarm.joinTokens };
}

/** A secret: its name and labels, never its data. */
export function secretView(secret: SwarmData): Record<string, unknown> {
  return { ...metaView(secret.meta), Spec: secret.spec };
}

/** A config: its name, labels and data (base64), which dockerd shows back. */
export function configView(config: SwarmData): Record<string, unknown> {
  return { ...metaView(config.meta), Spec: { ...config.spec, Data: config.data.toString('base64') } };
}

/** The Swarm section of GET /info: the node's part in a swarm, or dockerd's inactive one outside it. */
export function swarmInfoView(swarm: SwarmCluster): Record<string, unknown> {
  if (!swarm.active) return { NodeID: '', NodeAddr: '', LocalNodeState: 'inactive', ControlAvailable: false, Error: '', RemoteManagers: null };
  const { node } = swarm;
  return {
    NodeID: node.id,
    NodeAddr: swarm.nodeAddress,
    LocalNodeState: 'active',
    ControlAvailable: true,
    Error: '',
    RemoteManagers: [{ NodeID: node.id, Addr: swarm.managerAddress }],
    Nodes: 1,
    Managers: 1,
    Cluster: clusterView(swarm),
  };
}
