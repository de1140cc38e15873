/**
 * Swarm objects in Docker's shapes (spec/2 §2.7 and §2.8, and dockerd's where the spec says "not
 * shown"): services, tasks, the node, the swarm, and the Swarm section of GET /info. dockerd shows
 * them alike at every version it serves them.
 */
import { ENGINE_VERSION } from '../model/daemon-build.ts';
import { hostFacts } from '../model/host-facts.ts';
import type { Service } from '../model/service.ts';
import type { ServiceSpec, TaskSpec } from '../model/service-spec.ts';
import type { SwarmCluster, SwarmObjectMeta } from '../model/swarm-cluster.ts';
import type { Task } from '../model/task.ts';
import { formatTimestamp } from '../model/timestamps.ts';

/** The address the one node advertises, as `docker swarm init --advertise-addr 127.0.0.1` gives it. */
const NODE_ADDRESS = '127.0.0.1';
const MANAGER_ADDRESS = `${NODE_ADDRESS}:2377`;

function metaView(meta: SwarmObjectMeta) {
  return { ID: meta.id, Version: { Index: meta.versionIndex }, CreatedAt: formatTimestamp(meta.createdAt), UpdatedAt: formatTimestamp(meta.updatedAt) };
}

/** dockerd adds the container's isolation, the runtime and the force-update counter. */
function taskSpecView(spec: TaskSpec, service: boolean): Record<string, unknown> {
  return { ...spec, ContainerSpec: { ...spec.ContainerSpec, Isolation: 'default' }, ForceUpdate: 0, ...(service && { Runtime: 'container' }) };
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

export function taskView(task: Task): Record<string, unknown> {
  const { status } = task;
  return {
    ...metaView(task.meta),
    Labels: {},
    Spec: taskSpecView(task.spec, false),
    ServiceID: task.service.id,
    ...(task.slot !== undefined && { Slot: task.slot }),
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

export function nodeView(node: SwarmObjectMeta): Record<string, unknown> {
  const host = hostFacts();
  return {
    ...metaView(node),
    Spec: { Labels: {}, Role: 'manager', Availability: 'active' },
    Description: {
      Hostname: host.hostname,
      Platform: { Architecture: host.machine, OS: 'linux' },
      Resources: { NanoCPUs: host.ncpu * 1e9, MemoryBytes: host.memTotal },
      Engine: { EngineVersion: ENGINE_VERSION, Plugins: [{ Type: 'Network', Name: 'bridge' }, { Type: 'Network', Name: 'host' }, { Type: 'Network', Name: 'null' }, { Type: 'Network', Name: 'overlay' }, { Type: 'Volume', Name: 'local' }] },
    },
    Status: { State: 'ready', Addr: NODE_ADDRESS },
    ManagerStatus: { Leader: true, Reachability: 'reachable', Addr: MANAGER_ADDRESS },
  };
}

/** swarmkit's defaults for a swarm made by `docker swarm init`. */
const SWARM_SPEC = {
  Name: 'default',
  Labels: {},
  Orchestration: { TaskHistoryRetentionLimit: 5 },
  Raft: { SnapshotInterval: 10000, KeepOldSnapshots: 0, LogEntriesForSlowFollowers: 500, ElectionTick: 10, HeartbeatTick: 1 },
  Dispatcher: { HeartbeatPeriod: 5_000_000_000 },
  CAConfig: { NodeCertExpiry: 7_776_000_000_000_000 },
  TaskDefaults: {},
  EncryptionConfig: { AutoLockManagers: false },
};

function clusterView(cluster: SwarmObjectMeta): Record<string, unknown> {
  return { ...metaView(cluster), Spec: SWARM_SPEC };
}

/** GET /swarm: the cluster and the tokens that join nodes to it (the reference joins none). */
export function swarmView(cluster: SwarmObjectMeta): Record<string, unknown> {
  const token = (role: string) => `SWMTKN-1-${cluster.id}-${role}`;
  return { ...clusterView(cluster), JoinTokens: { Worker: token('worker'), Manager: token('manager') } };
}

/** The Swarm section of GET /info: the node's part in a swarm, or dockerd's inactive one outside it. */
export function swarmInfoView(swarm: SwarmCluster): Record<string, unknown> {
  if (!swarm.active) return { NodeID: '', NodeAddr: '', LocalNodeState: 'inactive', ControlAvailable: false, Error: '', RemoteManagers: null };
  const { node, cluster } = swarm;
  return {
    NodeID: node.id,
    NodeAddr: NODE_ADDRESS,
    LocalNodeState: 'active',
    ControlAvailable: true,
    Error: '',
    RemoteManagers: [{ NodeID: node.id, Addr: MANAGER_ADDRESS }],
    Nodes: 1,
    Managers: 1,
    Cluster: clusterView(cluster),
  };
}
