/**
 * The swarm's services (spec/2 §4.6): create, find (dockerd's order: full id, name, id prefix), list,
 * update and remove, each only on a swarm manager. An update names the version it read: one that is
 * not the service's current version is refused and changes nothing, as swarmkit refuses an update
 * out of sequence. The tasks follow each change through the orchestrator.
 */
import { generateName } from './container-names.ts';
import type { RegistryCredentials } from './image-registry.ts';
import { ConflictError, EngineError, InvalidParameterError, NotFoundError } from './errors.ts';
import { Service } from './service.ts';
import { matchesServiceFilters, type ServiceListFilters } from './service-list-filters.ts';
import type { ServiceSpec } from './service-spec.ts';
import type { SwarmCluster } from './swarm-cluster.ts';
import type { TaskOrchestrator } from './task-orchestrator.ts';

export interface ServiceStoreOptions {
  cluster: SwarmCluster;
  orchestrator: TaskOrchestrator;
}

export class ServiceStore {
  private services: Service[] = [];

  constructor(private readonly options: ServiceStoreOptions) {}

  /** A service without a name gets one made like a container's; its tasks pull with `credentials`. */
  create(given: ServiceSpec, credentials: RegistryCredentials = {}): Service {
    this.options.cluster.requireManager();
    checkSpec(given);
    const meta = this.options.cluster.newObject();
    const spec = given.Name === '' ? { ...given, Name: generateName(meta.id, (name) => this.services.some((service) => `/${service.name}` === name)).slice(1) } : given;
    if (this.services.some((service) => service.name === spec.Name)) throw new ConflictError(`rpc error: code = AlreadyExists desc = name conflicts with an existing object: service ${spec.Name} already exists`);
    const service = new Service(meta, spec, credentials);
    this.services.push(service);
    this.options.orchestrator.reconcile(service);
    return service;
  }

  find(reference: string): Service {
    this.options.cluster.requireManager();
    const byId = this.services.find((service) => service.id === reference) ?? this.services.find((service) => service.name === reference);
    if (byId) return byId;
    const byPrefix = this.services.filter((service) => service.id.startsWith(reference));
    if (byPrefix.length === 1 && byPrefix[0] && reference !== '') return byPrefix[0];
    throw new NotFoundError(`service ${reference} not found`);
  }

  list(filters: ServiceListFilters = {}): Service[] {
    this.options.cluster.requireManager();
    return this.services.filter((service) => matchesServiceFilters(service, filters));
  }

  /** Replaces the spec when `version` is the service's current one; a new task template replaces the tasks, a new mode or replica count moves them to the slots it wants. */
  update(service: Service, version: number, spec: ServiceSpec, credentials: RegistryCredentials = {}): void {
    this.options.cluster.requireManager();
    checkSpec(spec);
    if (version !== service.meta.versionIndex) throw new EngineError('rpc error: code = Unknown desc = update out of sequence');
    const replace = JSON.stringify(spec.TaskTemplate) !== JSON.stringify(service.spec.TaskTemplate);
    service.previousSpec = service.spec;
    service.spec = spec;
    service.registryCredentials = credentials;
    this.options.cluster.touch(service.meta);
    this.options.orchestrator.reconcile(service, replace);
  }

  remove(service: Service): void {
    this.options.cluster.requireManager();
    this.services = this.services.filter((held) => held !== service);
    this.options.orchestrator.retire(service);
  }

  /** Back to no services and no tasks. */
  clear(): void {
    this.services = [];
    this.options.orchestrator.clear();
  }
}

/** swarmkit's validation of what the model needs. */
function checkSpec(spec: ServiceSpec): void {
  if (spec.TaskTemplate.ContainerSpec.Image === '') throw new InvalidParameterError('rpc error: code = InvalidArgument desc = ContainerSpec: image reference must be provided');
}
