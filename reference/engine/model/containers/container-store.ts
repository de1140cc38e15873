/**
 * The containers the engine holds: create (validated), find (full id, name, unique id prefix —
 * dockerd's order), list, rename, and the removal of one whose process is gone. Names are unique
 * across containers.
 */
import { LayeredFilesystem } from '../../filesystem/layered-filesystem.ts';
import { Container } from './container.ts';
import { completeConfig, type ContainerSpec } from './container-config.ts';
import { canonicalLinks } from './container-links.ts';
import type { ContainerEvents } from './container-events.ts';
import { volumeMountsOf, type ContainerVolumes } from './container-volumes.ts';
import { ContainerLog } from './container-log.ts';
import { matchesPortFilters, matchesTaskFilter, portFilter, taskFilter, type PortListFilters } from './container-port-filters.ts';
import { canonicalName, generateName } from './container-names.ts';
import {
  checkedExitCodes,
  checkedHealth,
  checkedStatuses,
  matchesExitCode,
  matchesHealth,
  matchesLabelFilter,
  matchesNetwork,
  matchesStatus,
  matchesVolume,
  type ContainerListFilters,
} from './container-list-filters.ts';
import { ConflictError, InvalidParameterError, NotFoundError } from '../common/errors.ts';
import { completeHostConfig, type HostConfig } from './host-config.ts';
import { matchesAnyPattern } from '../common/filter-values.ts';
import { findByIdPrefix } from '../common/id-prefix.ts';
import type { ImageUser } from '../images/image-removal.ts';
import type { ImageStore } from '../images/image-store.ts';
import { checkHostConfig, checkHostname, checkStopSignal, type ValidationRules } from './settings-validation.ts';

export interface ContainerCreateOptions {
  /** with or without the leading `/`; generated when absent */
  name?: string;
  config: ContainerSpec;
  hostConfig?: Partial<HostConfig>;
  /** the version-dependent rules that apply to this create */
  rules?: ValidationRules;
}

export interface ContainerStoreOptions {
  images: ImageStore;
  clock: () => Date;
  ids: () => string;
  events: ContainerEvents;
  volumes: ContainerVolumes;
}

export interface ContainerListOptions {
  /** non-running containers too (default: running only) */
  all?: boolean;
  /** the last `limit` created, whatever their state */
  limit?: number;
  filters?: ContainerListFilters & PortListFilters;
}

export interface ContainerSize {
  /** bytes the container wrote on top of its image */
  rw: number;
  /** bytes of its whole filesystem */
  rootFs: number;
}

export class ContainerStore {
  private readonly byId = new Map<string, Container>();

  constructor(private readonly options: ContainerStoreOptions) {}

  get size(): number {
    return this.byId.size;
  }

  /** Settings are checked before the image is looked up, the name last: dockerd's order, so its errors win alike. */
  create(options: ContainerCreateOptions): Container {
    const rules = options.rules ?? {};
    checkHostname(options.config.Hostname ?? '', rules);
    checkStopSignal(options.config.StopSignal ?? '');
    const hostConfig = completeHostConfig(options.hostConfig);
    checkHostConfig(hostConfig, rules);
    const image = this.options.images.find(options.config.Image);
    const id = this.options.ids();
    const config = completeConfig(options.config, image, id);
    const name = options.name === undefined ? generateName(id, (candidate) => this.byName(candidate) !== undefined) : this.freeName(options.name, id);
    const { clock, volumes } = this.options;
    if (Array.isArray(hostConfig.Links)) hostConfig.Links = canonicalLinks(name, hostConfig.Links as string[]);
    const mounts = volumes.mountsFor(id, hostConfig, config.Volumes);
    const filesystem = new LayeredFilesystem(image.layers, { readOnly: hostConfig.ReadonlyRootfs, clock, volumes: volumeMountsOf(mounts), containerInitFiles: true });
    const container = new Container(id, name, clock(), image.id, config, hostConfig, filesystem, new ContainerLog(clock));
    container.mounts = mounts;
    volumes.populate(container);
    this.byId.set(id, container);
    this.options.events.publish(container, 'create');
    return container;
  }

  /** The name with its slash when no other container has it. */
  private freeName(given: string, forId: string): string {
    const name = canonicalName(given);
    const holder = this.byName(name);
    if (holder && holder.id !== forId) {
      throw new ConflictError(
        `Conflict. The container name "${name}" is already in use by container "${holder.id}". You have to remove (or rename) that container to be able to reuse that name.`,
      );
    }
    return name;
  }

  rename(container: Container, newName: string): void {
    if (newName === '') throw new InvalidParameterError('Neither old nor new names may be empty');
    const oldName = container.name;
    if ((newName.startsWith('/') ? newName : `/${newName}`) === oldName) {
      throw new InvalidParameterError('Renaming a container with the same name as its current name');
    }
    const context = 'Error when allocating new name';
    try {
      container.name = this.freeName(newName, container.id);
    } catch (error) {
      if (error instanceof ConflictError) throw new ConflictError(`${context}: ${error.message}`);
      if (error instanceof InvalidParameterError) throw new InvalidParameterError(`${context}: ${error.message}`);
      throw error;
    }
    this.options.events.publish(container, 'rename', { oldName });
  }

  private byName(name: string): Container | undefined {
    const canonical = name.startsWith('/') ? name : `/${name}`;
    for (const container of this.byId.values()) if (container.name === canonical) return container;
    return undefined;
  }

  /** By full id, exact name, then unique id prefix. NotFoundError, or AmbiguousReferenceError for a shared prefix. */
  find(reference: string): Container {
    const container =
      this.byId.get(reference) ?? this.byName(reference) ?? findByIdPrefix(this.byId.values(), (candidate) => candidate.id, reference);
    if (!container) throw new NotFoundError(`No such container: ${reference}`);
    return container;
  }

  /**
   * Newest first, as dockerd lists them. Running containers only unless `all`, a `limit` or a
   * `status` filter says otherwise; `before` and `since` cut the list at a container, the last value
   * of each counting, as on dockerd.
   */
  list(options: ContainerListOptions = {}): Container[] {
    const filters = options.filters ?? {};
    const statuses = checkedStatuses(filters.status);
    const exitCodes = checkedExitCodes(filters.exited);
    const health = checkedHealth(filters.health);
    const [publish, expose, isTask] = [portFilter('publish', filters.publish), portFilter('expose', filters.expose), taskFilter(filters['is-task'])];
    const imageIds = filters.ancestor?.flatMap((reference) => this.imageIdOf(reference));
    const limit = options.limit !== undefined && options.limit > 0 ? options.limit : undefined;
    const everyState = options.all === true || limit !== undefined || statuses !== undefined;
    const newestFirst = [...this.byId.values()].reverse().sort((a, b) => b.created.getTime() - a.created.getTime());
    const before = this.boundary(filters.before, newestFirst);
    const since = this.boundary(filters.since, newestFirst);
    const listed = newestFirst
      .filter((_, index) => (before === undefined || index > before) && (since === undefined || index < since))
      .filter((container) => everyState || container.state.Running)
      .filter((container) => matchesStatus(statuses, container))
      .filter((container) => matchesAnyPattern(filters.id, container.id))
      .filter((container) => matchesAnyPattern(filters.name, container.name))
      .filter((container) => matchesLabelFilter(filters.label, container))
      .filter((container) => matchesExitCode(exitCodes, container))
      .filter((container) => imageIds === undefined || imageIds.includes(container.imageId))
      .filter((container) => matchesVolume(filters.volume, container))
      .filter((container) => matchesNetwork(filters.network, container))
      .filter((container) => matchesPortFilters(container, publish, expose) && matchesTaskFilter(container, isTask))
      .filter((container) => matchesHealth(health, container));
    return limit === undefined ? listed : listed.slice(0, limit);
  }

  /**
   * Where the container a `before` or `since` filter names stands in the list. Naming none is the
   * client's mistake: 400 with dockerd's words (spec/1 §4.1 lists 400; dockerd answers the filter 500
   * and ignores the query parameters).
   */
  private boundary(references: string[] | undefined, newestFirst: Container[]): number | undefined {
    const reference = references?.at(-1);
    if (reference === undefined) return undefined;
    let container: Container;
    try {
      container = this.find(reference);
    } catch (error) {
      if (error instanceof NotFoundError) throw new InvalidParameterError(`no such container ${reference}`);
      throw error;
    }
    return newestFirst.indexOf(container);
  }

  /** An ancestor naming no image matches no container, as on dockerd: it is not an error. */
  private imageIdOf(reference: string): string[] {
    try {
      return [this.options.images.find(reference).id];
    } catch (error) {
      if (error instanceof NotFoundError) return [];
      throw error;
    }
  }

  has(container: Container): boolean {
    return this.byId.get(container.id) === container;
  }

  /** Forgets a container; the lifecycle decides when that may happen. */
  delete(container: Container): void {
    this.byId.delete(container.id);
  }

  sizeOf(container: Container): ContainerSize {
    return container.filesystem.size();
  }

  clear(): void {
    this.byId.clear();
  }

  /** The containers created from the image, as image removal weighs them (a paused one is running). */
  imageUsers(imageId: string): ImageUser[] {
    return [...this.byId.values()].filter((container) => container.imageId === imageId).map((container) => ({ id: container.id, running: container.state.Running }));
  }

  [Symbol.iterator](): IterableIterator<Container> {
    return this.byId.values();
  }
}
