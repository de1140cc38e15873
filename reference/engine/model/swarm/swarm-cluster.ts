/**
 * The swarm the engine may be part of: none, or a one-node swarm whose only node is its manager and
 * leader. dockerd's lifecycle: `init` makes one (a node already in one refuses), `leave` ends it (the
 * last manager only when forced), `join` would need another manager, which the reference never
 * reaches. Every change to a swarm object takes the next index of one counter, as swarmkit's raft
 * store numbers its writes, so `Version.Index` only grows and a stale one tells an outdated writer.
 */
import { randomBytes } from 'node:crypto';
import { ConflictError, EngineError, InvalidParameterError, NotFoundError, UnavailableError } from '../common/errors.ts';
import { anyValueHolds } from '../common/filter-values.ts';
import { hostFacts } from '../common/host-facts.ts';
import { matchesLabels } from '../common/label-match.ts';

export interface SwarmClusterOptions {
  clock: () => Date;
  /** ids of the swarm's objects (node, cluster, services, tasks), 25 base-36 digits each */
  ids: () => string;
  /** whether the engine starts as the manager of a swarm, as if `docker swarm init` had run (default: no swarm) */
  active?: boolean;
}

/** An object of the swarm's store: an id, when it was made and last changed, and at which index. */
export interface SwarmObjectMeta {
  readonly id: string;
  readonly createdAt: Date;
  updatedAt: Date;
  versionIndex: number;
}

/** The swarm's spec in Docker's names; a number 0 is "not set" (dockerd leaves most of those out). */
export interface SwarmSpec {
  Name: string;
  Labels: Record<string, string>;
  Orchestration: { TaskHistoryRetentionLimit: number };
  Raft: { SnapshotInterval: number; KeepOldSnapshots: number; LogEntriesForSlowFollowers: number; ElectionTick: number; HeartbeatTick: number };
  Dispatcher: { HeartbeatPeriod: number };
  CAConfig: { NodeCertExpiry: number; ExternalCAs?: unknown[] };
  TaskDefaults: { LogDriver?: unknown };
  EncryptionConfig: { AutoLockManagers: boolean };
}

/** A spec as a request gives it: any part may be missing. */
export type SwarmSpecRequest = Partial<Pick<SwarmSpec, 'Name' | 'Labels'>> & { [Part in Exclude<keyof SwarmSpec, 'Name' | 'Labels'>]?: Partial<SwarmSpec[Part]> };

export type NodeRole = 'manager' | 'worker';
export type NodeAvailability = 'active' | 'pause' | 'drain';
export const NODE_ROLES: readonly NodeRole[] = ['manager', 'worker'];
export const NODE_AVAILABILITIES: readonly NodeAvailability[] = ['active', 'pause', 'drain'];

export interface NodeSpec {
  /** '' when none was given (dockerd then leaves it out) */
  Name: string;
  Labels: Record<string, string>;
  Role: NodeRole;
  Availability: NodeAvailability;
}

export interface InitRequest {
  listenAddr: string;
  advertiseAddr: string;
  spec: SwarmSpecRequest;
}

export interface JoinRequest {
  listenAddr: string;
  remoteAddrs: string[];
  joinToken: string;
}

export interface SwarmUpdateRotations {
  workerToken?: boolean;
  managerToken?: boolean;
  managerUnlockKey?: boolean;
}

export interface NodeListFilters {
  id?: string[];
  name?: string[];
  role?: string[];
  membership?: string[];
  /** the engine's labels (the reference's engine has none) */
  label?: string[];
  /** the node's own labels, its spec's */
  'node.label'?: string[];
}

/** One swarm, from its init to its leave. */
interface Swarm {
  cluster: SwarmObjectMeta;
  spec: SwarmSpec;
  node: SwarmObjectMeta;
  nodeSpec: NodeSpec;
  /** the address the node advertises, and the manager's host:port */
  nodeAddress: string;
  managerAddress: string;
  joinTokens: { Worker: string; Manager: string };
  /** '' unless AutoLockManagers is on */
  unlockKey: string;
}

/** dockerd's answer to a swarm endpoint on a node that manages no swarm. */
export const NOT_A_MANAGER = 'This node is not a swarm manager. Use "docker swarm init" or "docker swarm join" to connect this node to swarm and try again.';
export const NOT_IN_A_SWARM = 'This node is not part of a swarm';
export const ALREADY_IN_A_SWARM = 'This node is already part of a swarm. Use "docker swarm leave" to leave this swarm and join another one.';
export const LAST_MANAGER_LEAVING =
  'You are attempting to leave the swarm on a node that is participating as a manager. Removing the last manager erases all current state of the swarm. Use `--force` to ignore this message. ';

/** swarmkit's defaults for what `docker swarm init` leaves unset. */
export const DEFAULT_SWARM_SPEC: SwarmSpec = {
  Name: 'default',
  Labels: {},
  Orchestration: { TaskHistoryRetentionLimit: 5 },
  Raft: { SnapshotInterval: 10000, KeepOldSnapshots: 0, LogEntriesForSlowFollowers: 500, ElectionTick: 10, HeartbeatTick: 1 },
  Dispatcher: { HeartbeatPeriod: 5_000_000_000 },
  CAConfig: { NodeCertExpiry: 7_776_000_000_000_000 },
  TaskDefaults: {},
  EncryptionConfig: { AutoLockManagers: false },
};

/** The port a swarm manager listens on when its address names none. */
const DEFAULT_SWARM_PORT = 2377;
/** What the engine that starts in a swarm was made with: `docker swarm init --advertise-addr 127.0.0.1`. */
const STARTING_SWARM: InitRequest = { listenAddr: `0.0.0.0:${DEFAULT_SWARM_PORT}`, advertiseAddr: '127.0.0.1', spec: {} };

export class SwarmCluster {
  private lastIndex = 0;
  private swarm: Swarm | undefined;
  /** the engine started in a swarm and has not left it yet: that one is made on first use */
  private starting: boolean;
  private readonly leaveListeners: (() => void)[] = [];

  constructor(private readonly options: SwarmClusterOptions) {
    this.starting = options.active ?? false;
  }

  get active(): boolean {
    return this.starting || this.swarm !== undefined;
  }

  /** Throws dockerd's 503 unless the engine manages a swarm. */
  requireManager(): void {
    if (!this.active) throw new UnavailableError(NOT_A_MANAGER);
  }

  /** Runs `listener` each time the engine leaves its swarm, for the stores of swarm objects to empty. */
  onLeave(listener: () => void): void {
    this.leaveListeners.push(listener);
  }

  /** The swarm; the one the engine started in is made on first use, so that making a model takes nothing from the injected clock and ids. */
  private get current(): Swarm {
    this.requireManager();
    if (this.starting) {
      this.starting = false;
      this.swarm = this.makeSwarm(STARTING_SWARM);
    }
    return this.swarm as Swarm;
  }

  get cluster(): SwarmObjectMeta {
    return this.current.cluster;
  }

  get spec(): SwarmSpec {
    return this.current.spec;
  }

  get node(): SwarmObjectMeta {
    return this.current.node;
  }

  get nodeSpec(): NodeSpec {
    return this.current.nodeSpec;
  }

  get joinTokens(): { Worker: string; Manager: string } {
    return this.current.joinTokens;
  }

  get nodeAddress(): string {
    return this.current.nodeAddress;
  }

  get managerAddress(): string {
    return this.current.managerAddress;
  }

  /** GET /swarm/unlockkey: the key that unlocks a restarted manager when AutoLockManagers is on, else ''. */
  get unlockKey(): string {
    return this.current.unlockKey;
  }

  /** POST /swarm/init: a new swarm with this node as its manager; returns the node's id. */
  init(request: InitRequest): string {
    if (this.active) throw new UnavailableError(ALREADY_IN_A_SWARM);
    checkListenAddress(request.listenAddr);
    if (request.spec.Name !== undefined && request.spec.Name !== '' && request.spec.Name !== 'default') throw new InvalidParameterError('swarm spec must be named "default"');
    this.swarm = this.makeSwarm(request);
    return this.swarm.node.id;
  }

  /** POST /swarm/join: dockerd's checks of the request; a well-formed one fails to reach the manager it names, as the reference reaches none. */
  join(request: JoinRequest): never {
    if (this.active) throw new UnavailableError(ALREADY_IN_A_SWARM);
    checkListenAddress(request.listenAddr);
    const [remote] = request.remoteAddrs;
    if (remote === undefined) throw new InvalidParameterError('at least 1 RemoteAddr is required to join');
    if (!/^SWMTKN-1-[0-9a-z]{50}-[0-9a-z]{25}$/.test(request.joinToken)) throw new EngineError('invalid join token');
    throw new UnavailableError(`rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing dial tcp ${withPort(remote)}: connect: connection refused"`);
  }

  /** POST /swarm/leave: the last manager leaves only when forced, and the swarm's objects go with it. */
  leave(force: boolean): void {
    if (!this.active) throw new UnavailableError(NOT_IN_A_SWARM);
    if (!force) throw new UnavailableError(LAST_MANAGER_LEAVING);
    this.starting = false;
    this.swarm = undefined;
    for (const listener of this.leaveListeners) listener();
  }

  /** POST /swarm/update at `version`: the spec replaced as given (its name stays), tokens and unlock key rotated as asked. */
  update(version: number, given: SwarmSpecRequest, rotate: SwarmUpdateRotations): void {
    const swarm = this.current;
    checkVersion(swarm.cluster, version);
    swarm.spec = { ...specWithZeros(given), Name: swarm.spec.Name };
    if (rotate.workerToken) swarm.joinTokens.Worker = this.joinToken(swarm.cluster);
    if (rotate.managerToken) swarm.joinTokens.Manager = this.joinToken(swarm.cluster);
    if (!swarm.spec.EncryptionConfig.AutoLockManagers) swarm.unlockKey = '';
    else if (swarm.unlockKey === '' || rotate.managerUnlockKey) swarm.unlockKey = newUnlockKey();
    this.touch(swarm.cluster);
  }

  /** POST /swarm/unlock: the reference's swarm never locks (it is never restarted). */
  unlock(): never {
    if (!this.active) throw new UnavailableError(NOT_IN_A_SWARM);
    throw new ConflictError('swarm is not locked');
  }

  /** The node by id, hostname or id prefix, as dockerd finds nodes; the one node is the only one to find. */
  findNode(reference: string): SwarmObjectMeta {
    const { node } = this;
    if (reference !== '' && (node.id.startsWith(reference) || reference === hostFacts().hostname)) return node;
    throw new NotFoundError(`node ${reference} not found`);
  }

  /** POST /nodes/{id}/update at `version`: the one manager cannot be demoted. */
  updateNode(node: SwarmObjectMeta, version: number, spec: NodeSpec): void {
    const swarm = this.current;
    checkVersion(node, version);
    if (spec.Role !== 'manager') throw new InvalidParameterError('rpc error: code = FailedPrecondition desc = attempting to demote the last manager of the swarm');
    swarm.nodeSpec = spec;
    this.touch(node);
  }

  /** The node list with dockerd's filters: the one node is a manager that has joined, named by its hostname. */
  listNodes(filters: NodeListFilters = {}): SwarmObjectMeta[] {
    const { node, nodeSpec } = this.current;
    const listed =
      anyValueHolds(filters.id, (prefix) => node.id.startsWith(prefix)) &&
      anyValueHolds(filters.name, (name) => name === hostFacts().hostname) &&
      anyValueHolds(filters.role, (role) => role === nodeSpec.Role) &&
      anyValueHolds(filters.membership, (membership) => membership === 'accepted') &&
      matchesLabels({}, filters.label ?? []) &&
      matchesLabels(nodeSpec.Labels, filters['node.label'] ?? []);
    return listed ? [node] : [];
  }

  /** A new object of the store, at the next index. */
  newObject(): SwarmObjectMeta {
    const now = this.options.clock();
    return { id: this.options.ids(), createdAt: now, updatedAt: now, versionIndex: this.nextIndex() };
  }

  /** Records a change to an object: a new index and update time. */
  touch(object: SwarmObjectMeta): void {
    object.updatedAt = this.options.clock();
    object.versionIndex = this.nextIndex();
  }

  /** Back to how the engine started: in a swarm (the one it is in, or a new one) or in none. */
  reset(): void {
    if (this.options.active) {
      if (this.swarm === undefined) this.starting = true;
    } else if (this.swarm !== undefined) {
      this.swarm = undefined;
    }
  }

  private makeSwarm(request: InitRequest): Swarm {
    const cluster = this.newObject();
    const node = this.newObject();
    const spec = specWithDefaults(request.spec);
    const listen = splitAddress(request.listenAddr);
    const advertised = request.advertiseAddr === '' ? listen : splitAddress(request.advertiseAddr, listen.port);
    const host = ['0.0.0.0', '::', '[::]', ''].includes(advertised.host) ? '127.0.0.1' : advertised.host;
    return {
      cluster,
      spec,
      node,
      nodeSpec: { Name: '', Labels: {}, Role: 'manager', Availability: 'active' },
      nodeAddress: host,
      managerAddress: `${host}:${advertised.port}`,
      joinTokens: { Worker: this.joinToken(cluster), Manager: this.joinToken(cluster) },
      unlockKey: spec.EncryptionConfig.AutoLockManagers ? newUnlockKey() : '',
    };
  }

  /** swarmkit's form: SWMTKN-1-<the cluster's 50 digits>-<25 secret digits>. */
  private joinToken(cluster: SwarmObjectMeta): string {
    return `SWMTKN-1-${cluster.id.padEnd(50, cluster.id)}-${this.options.ids()}`;
  }

  private nextIndex(): number {
    this.lastIndex += 1;
    return this.lastIndex;
  }
}

/** swarmkit refuses a write that names a version other than the object's current one. */
export function checkVersion(object: SwarmObjectMeta, version: number): void {
  if (version !== object.versionIndex) throw new EngineError('rpc error: code = Unknown desc = update out of sequence');
}

function checkListenAddress(address: string): void {
  if (address === '') throw new InvalidParameterError('invalid ListenAddr "": invalid empty address');
}

function splitAddress(address: string, defaultPort = DEFAULT_SWARM_PORT): { host: string; port: number } {
  const found = /^(.*?)(?::(\d+))?$/.exec(address);
  return { host: found?.[1] ?? address, port: found?.[2] === undefined ? defaultPort : Number(found[2]) };
}

function withPort(address: string): string {
  const { host, port } = splitAddress(address);
  return `${host}:${port}`;
}

/** `docker swarm init`: what the request leaves unset (0) takes swarmkit's default. */
function specWithDefaults(given: SwarmSpecRequest): SwarmSpec {
  const spec = specWithZeros(given);
  const defaulted = <T extends object>(part: T, defaults: T): T => Object.fromEntries(Object.entries(part).map(([key, value]) => [key, value === 0 ? (defaults as Record<string, unknown>)[key] : value])) as T;
  return {
    ...spec,
    Name: DEFAULT_SWARM_SPEC.Name,
    Orchestration: defaulted(spec.Orchestration, DEFAULT_SWARM_SPEC.Orchestration),
    Raft: defaulted(spec.Raft, DEFAULT_SWARM_SPEC.Raft),
    Dispatcher: defaulted(spec.Dispatcher, DEFAULT_SWARM_SPEC.Dispatcher),
    CAConfig: defaulted(spec.CAConfig, DEFAULT_SWARM_SPEC.CAConfig),
  };
}

/** An update: what the request leaves out is zero, as swarmkit takes the spec whole. */
function specWithZeros(given: SwarmSpecRequest): SwarmSpec {
  return {
    Name: given.Name ?? '',
    Labels: given.Labels ?? {},
    Orchestration: { TaskHistoryRetentionLimit: given.Orchestration?.TaskHistoryRetentionLimit ?? 0 },
    Raft: {
      SnapshotInterval: given.Raft?.SnapshotInterval ?? 0,
      KeepOldSnapshots: given.Raft?.KeepOldSnapshots ?? 0,
      LogEntriesForSlowFollowers: given.Raft?.LogEntriesForSlowFollowers ?? 0,
      ElectionTick: given.Raft?.ElectionTick ?? 0,
      HeartbeatTick: given.Raft?.HeartbeatTick ?? 0,
    },
    Dispatcher: { HeartbeatPeriod: given.Dispatcher?.HeartbeatPeriod ?? 0 },
    CAConfig: { NodeCertExpiry: given.CAConfig?.NodeCertExpiry ?? 0, ...(given.CAConfig?.ExternalCAs?.length && { ExternalCAs: given.CAConfig.ExternalCAs }) },
    TaskDefaults: given.TaskDefaults?.LogDriver ? { LogDriver: given.TaskDefaults.LogDriver } : {},
    EncryptionConfig: { AutoLockManagers: given.EncryptionConfig?.AutoLockManagers ?? false },
  };
}

/** swarmkit's form: SWMKEY-1- and 32 random bytes in unpadded base64. */
function newUnlockKey(): string {
  return `SWMKEY-1-${randomBytes(32).toString('base64').replace(/=+$/, '')}`;
}
