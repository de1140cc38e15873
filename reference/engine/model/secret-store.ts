/**
 * The swarm's secrets (Docker's, from API 1.25; the spec leaves the secret resource "not shown"),
 * with swarmkit's rules: a name of up to 64 letters, digits, `-`, `_` and `.` that starts and ends
 * with a letter or digit, unique; data of 1 byte to 500 KiB, never shown again; an update may change
 * the labels only, at the secret's current version; a secret a service uses cannot be removed.
 */
import { ConflictError, InvalidParameterError, NotFoundError } from './errors.ts';
import { anyValueHolds } from './filter-values.ts';
import { matchesLabels } from './label-match.ts';
import { checkVersion, type SwarmCluster, type SwarmObjectMeta } from './swarm-cluster.ts';

export interface SecretSpec {
  Name: string;
  Labels: Record<string, string>;
  /** given on create only; an update that gives some is refused */
  Data?: Buffer;
}

export interface Secret {
  readonly meta: SwarmObjectMeta;
  spec: { Name: string; Labels: Record<string, string> };
  readonly data: Buffer;
}

/** dockerd's secret filters: `names` exact, `name` and `id` by prefix, `label` key or key=value. */
export interface SecretListFilters {
  names?: string[];
  name?: string[];
  id?: string[];
  label?: string[];
}

export interface SecretStoreOptions {
  cluster: SwarmCluster;
  /** the names of the services that use the secret */
  usedBy: (secret: Secret) => string[];
}

/** swarmkit's MaxSecretSize: 500 KiB. */
const MAX_SECRET_BYTES = 500 * 1024;
const VALID_NAME = /^[a-zA-Z0-9](?:[a-zA-Z0-9-_.]{0,62}[a-zA-Z0-9])?$/;

export class SecretStore {
  private secrets: Secret[] = [];

  constructor(private readonly options: SecretStoreOptions) {
    options.cluster.onLeave(() => this.clear());
  }

  create(spec: SecretSpec): Secret {
    this.options.cluster.requireManager();
    checkName(spec.Name);
    const data = spec.Data ?? Buffer.alloc(0);
    if (data.length === 0 || data.length >= MAX_SECRET_BYTES) throw new InvalidParameterError(`rpc error: code = InvalidArgument desc = secret data must be larger than 0 and less than ${MAX_SECRET_BYTES} bytes`);
    if (this.secrets.some((secret) => secret.spec.Name === spec.Name)) throw new ConflictError(`rpc error: code = AlreadyExists desc = secret ${spec.Name} already exists`);
    const secret: Secret = { meta: this.options.cluster.newObject(), spec: { Name: spec.Name, Labels: spec.Labels }, data };
    this.secrets.push(secret);
    return secret;
  }

  /** By full id, then name, then unique id prefix (dockerd's order). */
  find(reference: string): Secret {
    this.options.cluster.requireManager();
    const found = this.secrets.find((secret) => secret.meta.id === reference) ?? this.secrets.find((secret) => secret.spec.Name === reference);
    if (found) return found;
    const byPrefix = this.secrets.filter((secret) => secret.meta.id.startsWith(reference));
    if (byPrefix.length === 1 && byPrefix[0] && reference !== '') return byPrefix[0];
    throw new NotFoundError(`secret ${reference} not found`);
  }

  /** The data of the secret of that id, for the containers of the tasks that use it. */
  dataOf(id: string): Buffer | undefined {
    return this.secrets.find((secret) => secret.meta.id === id)?.data;
  }

  /** The secret a service's reference names, by id and name both (swarmkit's check of a service's secrets). */
  findReferenced(id: string, name: string): Secret | undefined {
    return this.secrets.find((secret) => secret.meta.id === id && secret.spec.Name === name);
  }

  list(filters: SecretListFilters = {}): Secret[] {
    this.options.cluster.requireManager();
    return this.secrets.filter(
      (secret) =>
        anyValueHolds(filters.names, (name) => secret.spec.Name === name) &&
        anyValueHolds(filters.name, (prefix) => secret.spec.Name.startsWith(prefix)) &&
        anyValueHolds(filters.id, (prefix) => secret.meta.id.startsWith(prefix)) &&
        matchesLabels(secret.spec.Labels, filters.label ?? []),
    );
  }

  /** Only the labels change, at the secret's current version; the secret's own Data may come back with them (swarmkit compares). */
  update(secret: Secret, version: number, spec: SecretSpec): void {
    this.options.cluster.requireManager();
    checkVersion(secret.meta, version);
    const dataChanged = spec.Data !== undefined && spec.Data.length > 0 && !spec.Data.equals(secret.data);
    if (spec.Name !== secret.spec.Name || dataChanged) throw new InvalidParameterError('rpc error: code = InvalidArgument desc = only updates to Labels are allowed');
    secret.spec = { Name: secret.spec.Name, Labels: spec.Labels };
    this.options.cluster.touch(secret.meta);
  }

  remove(secret: Secret): void {
    this.options.cluster.requireManager();
    const users = this.options.usedBy(secret);
    if (users.length > 0) {
      throw new InvalidParameterError(`rpc error: code = InvalidArgument desc = secret '${secret.spec.Name}' is in use by the following ${users.length === 1 ? 'service' : 'services'}: ${users.join(', ')}`);
    }
    this.secrets = this.secrets.filter((held) => held !== secret);
  }

  clear(): void {
    this.secrets = [];
  }
}

function checkName(name: string): void {
  if (name === '') throw new InvalidParameterError('rpc error: code = InvalidArgument desc = name must be provided');
  if (!VALID_NAME.test(name)) throw new InvalidParameterError('rpc error: code = InvalidArgument desc = invalid name, only 64 [a-zA-Z0-9-_.] characters allowed, and the start and end character must be [a-zA-Z0-9]');
}
