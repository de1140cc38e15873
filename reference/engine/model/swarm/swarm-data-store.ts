/**
 * The swarm's secrets and configs (Docker's: secrets from API 1.25, configs from 1.30, both served by
 * dockerd 20.10 at every version prefix; the spec leaves them "not shown"), with swarmkit's rules: a
 * name of up to 64 letters, digits, `-`, `_` and `.` that starts and ends with a letter or digit,
 * unique; data of 1 byte up to 500 KiB for a secret, 1000 KiB for a config; an update may change the
 * labels only (the object's own Data may come back with them), at its current version; one a service
 * uses cannot be removed. The two kinds differ only in these sizes, their word in messages, and in
 * that a config's data is shown back while a secret's never is (the HTTP views' business).
 */
import { ConflictError, InvalidParameterError, NotFoundError } from '../common/errors.ts';
import { anyValueHolds } from '../common/filter-values.ts';
import { matchesLabels } from '../common/label-match.ts';
import { checkVersion, type SwarmCluster, type SwarmObjectMeta } from './swarm-cluster.ts';

export interface SwarmDataSpec {
  Name: string;
  Labels: Record<string, string>;
  /** given on create only; an update that gives some is refused */
  Data?: Buffer;
}

export interface SwarmData {
  readonly meta: SwarmObjectMeta;
  spec: { Name: string; Labels: Record<string, string> };
  readonly data: Buffer;
}

/** dockerd's filters of secrets and configs: `names` exact, `name` and `id` by prefix, `label` key or key=value. */
export interface SwarmDataListFilters {
  names?: string[];
  name?: string[];
  id?: string[];
  label?: string[];
}

export type SwarmDataKind = 'secret' | 'config';

export interface SwarmDataStoreOptions {
  kind: SwarmDataKind;
  cluster: SwarmCluster;
  /** the names of the services that use the object */
  usedBy: (object: SwarmData) => string[];
}

/** swarmkit's MaxSecretSize and MaxConfigSize. */
const MAX_BYTES: Record<SwarmDataKind, number> = { secret: 500 * 1024, config: 1000 * 1024 };
const VALID_NAME = /^[a-zA-Z0-9](?:[a-zA-Z0-9-_.]{0,62}[a-zA-Z0-9])?$/;

export class SwarmDataStore {
  private objects: SwarmData[] = [];

  constructor(private readonly options: SwarmDataStoreOptions) {
    options.cluster.onLeave(() => this.clear());
  }

  create(spec: SwarmDataSpec): SwarmData {
    this.options.cluster.requireManager();
    checkName(spec.Name);
    const data = spec.Data ?? Buffer.alloc(0);
    const { kind } = this.options;
    if (data.length === 0 || data.length >= MAX_BYTES[kind]) throw new InvalidParameterError(`rpc error: code = InvalidArgument desc = ${kind} data must be larger than 0 and less than ${MAX_BYTES[kind]} bytes`);
    if (this.objects.some((object) => object.spec.Name === spec.Name)) throw new ConflictError(`rpc error: code = AlreadyExists desc = ${kind} ${spec.Name} already exists`);
    const object: SwarmData = { meta: this.options.cluster.newObject(), spec: { Name: spec.Name, Labels: spec.Labels }, data };
    this.objects.push(object);
    return object;
  }

  /** By full id, then name, then unique id prefix (dockerd's order). */
  find(reference: string): SwarmData {
    this.options.cluster.requireManager();
    const found = this.objects.find((object) => object.meta.id === reference) ?? this.objects.find((object) => object.spec.Name === reference);
    if (found) return found;
    const byPrefix = this.objects.filter((object) => object.meta.id.startsWith(reference));
    if (byPrefix.length === 1 && byPrefix[0] && reference !== '') return byPrefix[0];
    throw new NotFoundError(`${this.options.kind} ${reference} not found`);
  }

  /** The data of the object of that id, for the containers of the tasks that use it. */
  dataOf(id: string): Buffer | undefined {
    return this.objects.find((object) => object.meta.id === id)?.data;
  }

  /** The object a service's reference names, by id and name both (swarmkit's check of a service's secrets). */
  findReferenced(id: string, name: string): SwarmData | undefined {
    return this.objects.find((object) => object.meta.id === id && object.spec.Name === name);
  }

  list(filters: SwarmDataListFilters = {}): SwarmData[] {
    this.options.cluster.requireManager();
    return this.objects.filter(
      (object) =>
        anyValueHolds(filters.names, (name) => object.spec.Name === name) &&
        anyValueHolds(filters.name, (prefix) => object.spec.Name.startsWith(prefix)) &&
        anyValueHolds(filters.id, (prefix) => object.meta.id.startsWith(prefix)) &&
        matchesLabels(object.spec.Labels, filters.label ?? []),
    );
  }

  /** Only the labels change, at the object's current version; its own Data may come back with them (swarmkit compares). */
  update(object: SwarmData, version: number, spec: SwarmDataSpec): void {
    this.options.cluster.requireManager();
    checkVersion(object.meta, version);
    const dataChanged = spec.Data !== undefined && spec.Data.length > 0 && !spec.Data.equals(object.data);
    if (spec.Name !== object.spec.Name || dataChanged) throw new InvalidParameterError('rpc error: code = InvalidArgument desc = only updates to Labels are allowed');
    object.spec = { Name: object.spec.Name, Labels: spec.Labels };
    this.options.cluster.touch(object.meta);
  }

  remove(object: SwarmData): void {
    this.options.cluster.requireManager();
    const users = this.options.usedBy(object);
    if (users.length > 0) {
      throw new InvalidParameterError(`rpc error: code = InvalidArgument desc = ${this.options.kind} '${object.spec.Name}' is in use by the following ${users.length === 1 ? 'service' : 'services'}: ${users.join(', ')}`);
    }
    this.objects = this.objects.filter((held) => held !== object);
  }

  clear(): void {
    this.objects = [];
  }
}

function checkName(name: string): void {
  if (name === '') throw new InvalidParameterError('rpc error: code = InvalidArgument desc = name must be provided');
  if (!VALID_NAME.test(name)) throw new InvalidParameterError('rpc error: code = InvalidArgument desc = invalid name, only 64 [a-zA-Z0-9-_.] characters allowed, and the start and end character must be [a-zA-Z0-9]');
}
