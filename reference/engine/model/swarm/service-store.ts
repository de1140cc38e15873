/**
 * The swarm's services (spec/2 §4.6): create, find (dockerd's order: full id, name, id prefix), list,
 * update and remove, each only on a swarm manager. An update names the version it read: one that is
 * not the service's current version is refused and changes nothing, as swarmkit refuses an update
 * out of sequence. The tasks follow each change through the orchestrator.
 */
import { generateName } from '../containers/container-names.ts';
import type { RegistryCredentials } from '../images/image-registry.ts';
import { ConflictError, EngineError, InvalidParameterError, NotFoundError } from '../common/errors.ts';
import { parseImageReference } from '../images/image-reference.ts';
import type { NetworkStore } from '../networks/network-store.ts';
import type { SwarmDataStore } from './swarm-data-store.ts';
import { Service } from './service.ts';
import { matchesServiceFilters, type ServiceListFilters } from './service-list-filters.ts';
import { isGlobal, type NetworkAttachment, type ServiceSpec } from './service-spec.ts';
import { checkVersion, type SwarmCluster } from './swarm-cluster.ts';
import type { TaskOrchestrator } from './task-orchestrator.ts';

export interface ServiceStoreOptions {
  cluster: SwarmCluster;
  orchestrator: TaskOrchestrator;
  secrets: SwarmDataStore;
  networks: NetworkStore;
}

export class ServiceStore {
  private services: Service[] = [];

  constructor(private readonly options: ServiceStoreOptions) {
    // dockerd force-removes the swarm's containers when the node leaves.
    options.cluster.onLeave(() => {
      this.services = [];
      options.orchestrator.abandon();
    });
  }

  /** A service without a name gets one made like a container's; its tasks pull with `credentials`. */
  create(given: ServiceSpec, credentials: RegistryCredentials = {}): Service {
    this.options.cluster.requireManager();
    this.checkSpec(given);
    const meta = this.options.cluster.newObject();
    const named = given.Name === '' ? { ...given, Name: generateName(meta.id, (name) => this.services.some((service) => `/${service.name}` === name)).slice(1) } : given;
    const spec = this.withNetworkIds(named);
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
  update(service: Service, version: number, given: ServiceSpec, credentials: RegistryCredentials = {}): void {
    this.options.cluster.requireManager();
    this.checkSpec(given);
    checkVersion(service.meta, version);
    // dockerd's words; its status is 501, which the update's row (200, 404, 500: spec/2 §4.6) does not
    // list, so the reference answers 500 (swarm.services.mode-change-status; mode-change-refused pins 501)
    if (isGlobal(given.Mode) !== isGlobal(service.spec.Mode)) throw new EngineError('rpc error: code = Unimplemented desc = service mode change is not allowed');
    const spec = this.withNetworkIds(given);
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

  /** The names of the services whose tasks get the secret. */
  usingSecret(secretId: string): string[] {
    return this.services.filter((service) => service.spec.TaskTemplate.ContainerSpec.Secrets?.some((reference) => reference.SecretID === secretId)).map((service) => service.name);
  }

  /** The id of a service attached to the network, if any. */
  usingNetwork(networkId: string): string | undefined {
    return this.services.find((service) => attachmentsOf(service.spec).some((attachment) => attachment.Target === networkId))?.id;
  }

  /** swarmkit's validation of what the model needs: an image, and secrets the swarm has under the id and name given. */
  private checkSpec(spec: ServiceSpec): void {
    if (spec.TaskTemplate.ContainerSpec.Image === '') throw new InvalidParameterError('rpc error: code = InvalidArgument desc = ContainerSpec: image reference must be provided');
    const references = spec.TaskTemplate.ContainerSpec.Secrets ?? [];
    for (const reference of references) {
      if (!reference.SecretID || !reference.SecretName) throw new InvalidParameterError('rpc error: code = InvalidArgument desc = malformed secret reference');
      if (reference.File === undefined) throw new InvalidParameterError('rpc error: code = InvalidArgument desc = malformed secret reference, no target provided');
    }
    const missing = references.filter((reference) => !this.options.secrets.findReferenced(reference.SecretID, reference.SecretName)).map((reference) => reference.SecretName);
    if (missing.length > 0) throw new InvalidParameterError(`rpc error: code = InvalidArgument desc = ${missing.length === 1 ? 'secret' : 'secrets'} not found: ${missing.join(', ')}`);
  }

  /** The networks a spec names, each by its id, as swarmkit keeps them; an unknown one is dockerd's plain error. */
  private withNetworkIds(spec: ServiceSpec): ServiceSpec {
    const resolve = (attachments: NetworkAttachment[] | undefined) => attachments?.map((attachment) => ({ ...attachment, Target: this.networkId(attachment.Target) }));
    const template = spec.TaskTemplate.Networks ? { ...spec.TaskTemplate, Networks: resolve(spec.TaskTemplate.Networks) } : spec.TaskTemplate;
    return { ...spec, TaskTemplate: template, ...(spec.Networks && { Networks: resolve(spec.Networks) }) };
  }

  private networkId(reference: string): string {
    try {
      return this.options.networks.find(reference).id;
    } catch (error) {
      if (error instanceof NotFoundError) throw new EngineError(`network ${reference} not found`);
      throw error;
    }
  }

  /** Back to no services and no tasks. */
  clear(): void {
    this.services = [];
    this.options.orchestrator.clear();
  }
}

function attachmentsOf(spec: ServiceSpec): NetworkAttachment[] {
  return [...(spec.TaskTemplate.Networks ?? []), ...(spec.Networks ?? [])];
}

/**
 * What dockerd warns of on a create or update below API 1.30: it looks the image's digest up in its
 * registry to pin it, and an image named without a digest that no registry serves (every image of
 * the reference's store, which asks none) cannot be pinned.
 */
export function imageWarnings(spec: ServiceSpec): string[] {
  const { Image } = spec.TaskTemplate.ContainerSpec;
  if (parseImageReference(Image)?.digest !== undefined) return [];
  return [`image ${Image} could not be accessed on a registry to record\nits digest. Each node will access ${Image} independently,\npossibly leading to different nodes running different\nversions of the image.\n`];
}
