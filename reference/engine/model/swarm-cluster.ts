/**
 * The swarm the engine may be part of: a one-node swarm whose only node is its manager and leader,
 * or none. Every change to a swarm object takes the next index of one counter, as swarmkit's raft
 * store numbers its writes, so `Version.Index` only grows and a stale one tells an outdated writer.
 */
import { NotFoundError, UnavailableError } from './errors.ts';
import { anyValueHolds } from './filter-values.ts';
import { hostFacts } from './host-facts.ts';

export interface SwarmClusterOptions {
  clock: () => Date;
  /** ids of the swarm's objects (node, cluster, services, tasks), 25 base-36 digits each */
  ids: () => string;
  /** whether the engine is a swarm manager (default: no swarm) */
  active?: boolean;
}

/** An object of the swarm's store: an id, when it was made and last changed, and at which index. */
export interface SwarmObjectMeta {
  readonly id: string;
  readonly createdAt: Date;
  updatedAt: Date;
  versionIndex: number;
}

export interface NodeListFilters {
  id?: string[];
  name?: string[];
  role?: string[];
  membership?: string[];
}

/** dockerd's answer to a swarm endpoint on a node that manages no swarm. */
export const NOT_A_MANAGER = 'This node is not a swarm manager. Use "docker swarm init" or "docker swarm join" to connect this node to swarm and try again.';

export class SwarmCluster {
  readonly active: boolean;
  private lastIndex = 0;
  private made: { cluster: SwarmObjectMeta; node: SwarmObjectMeta } | undefined;

  constructor(private readonly options: SwarmClusterOptions) {
    this.active = options.active ?? false;
  }

  /** Throws dockerd's 503 unless the engine manages a swarm. */
  requireManager(): void {
    if (!this.active) throw new UnavailableError(NOT_A_MANAGER);
  }

  /** The cluster and its one node, made on first use so that making a model takes nothing from the injected clock and ids. */
  private get objects(): { cluster: SwarmObjectMeta; node: SwarmObjectMeta } {
    this.made ??= { cluster: this.newObject(), node: this.newObject() };
    return this.made;
  }

  get cluster(): SwarmObjectMeta {
    this.requireManager();
    return this.objects.cluster;
  }

  get node(): SwarmObjectMeta {
    this.requireManager();
    return this.objects.node;
  }

  /** The node by id, hostname or id prefix, as dockerd finds nodes; the one node is the only one to find. */
  findNode(reference: string): SwarmObjectMeta {
    const { node } = this;
    if (reference !== '' && (node.id.startsWith(reference) || reference === hostFacts().hostname)) return node;
    throw new NotFoundError(`node ${reference} not found`);
  }

  /** The node list with dockerd's filters: the one node is a ready manager that has joined, named by its hostname. */
  listNodes(filters: NodeListFilters = {}): SwarmObjectMeta[] {
    const { node } = this;
    const listed =
      anyValueHolds(filters.id, (prefix) => node.id.startsWith(prefix)) &&
      anyValueHolds(filters.name, (name) => name === hostFacts().hostname) &&
      anyValueHolds(filters.role, (role) => role === 'manager') &&
      anyValueHolds(filters.membership, (membership) => membership === 'accepted');
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

  private nextIndex(): number {
    this.lastIndex += 1;
    return this.lastIndex;
  }
}
