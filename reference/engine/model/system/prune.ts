/**
 * Prune (POST /containers|images|volumes|networks/prune), as dockerd 20.10 does it: remove what
 * nothing uses among the objects the filters select, answer what went and the bytes that freed, and
 * publish one `prune` event per call (actor id '', attribute `reclaimed`) after the objects' own
 * events. The spec does not describe prune; this follows dockerd.
 */
import { entrySize } from '../../filesystem/layer-entry.ts';
import type { ContainerLifecycle } from '../containers/container-lifecycle.ts';
import type { ContainerStore } from '../containers/container-store.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../common/errors.ts';
import type { EngineEventType, EventBus } from '../events/event-bus.ts';
import { chainIds } from '../images/image-layer-digests.ts';
import type { ImageRemovalRecord } from '../images/image-removal.ts';
import type { ImageStore } from '../images/image-store.ts';
import type { Image } from '../images/image.ts';
import { matchesLabels } from '../common/label-match.ts';
import type { NetworkStore } from '../networks/network-store.ts';
import type { Network } from '../networks/network.ts';
import type { VolumeStore } from '../volumes/volume-store.ts';
import type { Volume } from '../volumes/volume.ts';

/** What a prune's filters select (dockerd's `until`, `label`, `label!`; `dangling` for images). */
export interface PruneFilters {
  /** only objects created before this time */
  until?: Date;
  /** every entry must hold (`key` or `key=value`) */
  label?: string[];
  /** objects for which every one of these holds are kept */
  notLabel?: string[];
}

export interface ImagePruneFilters extends PruneFilters {
  /** true (the default): only images without a tag; false: any image no container uses */
  dangling?: boolean;
}

export interface ContainersPruned {
  ContainersDeleted: string[];
  SpaceReclaimed: number;
}

export interface ImagesPruned {
  ImagesDeleted: ImageRemovalRecord[];
  SpaceReclaimed: number;
}

export interface VolumesPruned {
  VolumesDeleted: string[];
  SpaceReclaimed: number;
}

export interface NetworksPruned {
  NetworksDeleted: string[];
}

export interface PruneOptions {
  containers: ContainerStore;
  lifecycle: ContainerLifecycle;
  images: ImageStore;
  volumes: VolumeStore;
  networks: NetworkStore;
  events: EventBus;
  clock: () => Date;
}

/** dockerd's matchLabels: the `label` entries all hold, and not every `label!` entry holds. */
export function selectedBy(filters: PruneFilters, labels: Record<string, string>, created: Date): boolean {
  if (filters.until !== undefined && created.getTime() >= filters.until.getTime()) return false;
  if (!matchesLabels(labels, filters.label ?? [])) return false;
  return !(filters.notLabel?.length && matchesLabels(labels, filters.notLabel));
}

/** The bytes of a volume's files. */
export function volumeSize(volume: Volume): number {
  let size = 0;
  for (const entry of volume.files.values()) size += entrySize(entry);
  return size;
}

/** The bytes of every layer the images hold, each counted once (system df's LayersSize). */
export function layersSize(images: Iterable<Image>): number {
  const sizes = new Map<string, number>();
  for (const image of images) {
    const ids = chainIds(image.diffIds);
    image.layers.layers.forEach((layer, index) => sizes.set(ids[index] ?? `${image.id}/${index}`, layer.size));
  }
  let total = 0;
  for (const size of sizes.values()) total += size;
  return total;
}

/** dockerd's prune locks: containers and networks share the daemon's, images and volumes have their own services'. */
type PruneLock = 'daemon' | 'images' | 'volumes';

export class Pruner {
  private readonly running = new Set<PruneLock>();

  constructor(private readonly options: PruneOptions) {}

  /** One prune per lock at a time; another meanwhile is a conflict, as on dockerd. */
  private async exclusive<T>(lock: PruneLock, prune: () => Promise<T>): Promise<T> {
    if (this.running.has(lock)) throw new ConflictError('a prune operation is already running');
    this.running.add(lock);
    try {
      return await prune();
    } finally {
      this.running.delete(lock);
    }
  }

  /** Containers that are not running (created, exited, dead); a paused or restarting one counts as running. */
  pruneContainers(filters: PruneFilters): Promise<ContainersPruned> {
    return this.exclusive('daemon', () => this.removeContainers(filters));
  }

  private async removeContainers(filters: PruneFilters): Promise<ContainersPruned> {
    const { containers, lifecycle } = this.options;
    const chosen = [...containers].filter((container) => !container.state.Running && selectedBy(filters, container.config.Labels, container.created));
    const deleted: string[] = [];
    let reclaimed = 0;
    for (const container of chosen) {
      const size = containers.sizeOf(container).rw;
      if (!(await this.removed(() => lifecycle.remove(container)))) continue;
      deleted.push(container.id);
      reclaimed += size;
    }
    this.publish('container', reclaimed);
    return { ContainersDeleted: deleted, SpaceReclaimed: reclaimed };
  }

  /**
   * dockerd's ImagesPrune: images without a tag (or any image, with dangling false) that are not the
   * untagged parent of another; one with names loses each name (the last takes the image), one
   * without is deleted by id. An image a container uses stays (its removal is a conflict).
   */
  pruneImages(filters: ImagePruneFilters): Promise<ImagesPruned> {
    return this.exclusive('images', () => this.removeImages(filters));
  }

  private async removeImages(filters: ImagePruneFilters): Promise<ImagesPruned> {
    const { images, containers } = this.options;
    const danglingOnly = filters.dangling ?? true;
    const before = layersSize(images.list({ all: true }));
    const candidates = images.list({ all: true }).filter((image) => {
      const named = image.repoTags.length + image.repoDigests.length > 0;
      if (!named && images.children(image).length > 0) return false;
      if (danglingOnly && image.repoTags.length > 0) return false;
      return selectedBy(filters, image.config.Labels, image.created);
    });
    const usedBy = (imageId: string) => containers.imageUsers(imageId);
    const records: ImageRemovalRecord[] = [];
    for (const image of candidates) {
      const references = image.repoTags.length + image.repoDigests.length > 0 ? [...image.repoTags, ...image.repoDigests] : [image.id];
      for (const reference of references) {
        await this.removed(() => {
          records.push(...images.remove(reference, { force: false, noprune: false }, usedBy));
        });
      }
    }
    const reclaimed = before - layersSize(images.list({ all: true }));
    this.publish('image', reclaimed);
    return { ImagesDeleted: records, SpaceReclaimed: reclaimed };
  }

  /** Volumes no container uses (named and anonymous alike before API 1.42); `until` is no volume filter on dockerd. */
  pruneVolumes(filters: Omit<PruneFilters, 'until'>): Promise<VolumesPruned> {
    return this.exclusive('volumes', () => this.removeVolumes(filters));
  }

  private async removeVolumes(filters: Omit<PruneFilters, 'until'>): Promise<VolumesPruned> {
    const { volumes } = this.options;
    const chosen = volumes.list().filter((volume) => !volumes.inUse(volume) && selectedBy(filters, volume.labels, volume.createdAt));
    const deleted: string[] = [];
    let reclaimed = 0;
    for (const volume of chosen) {
      const size = volumeSize(volume);
      // dockerd's volume prune removes through the store: no destroy event, only the prune one
      if (!(await this.removed(() => volumes.remove(volume.name, { event: false })))) continue;
      deleted.push(volume.name);
      reclaimed += size;
    }
    this.publish('volume', reclaimed);
    return { VolumesDeleted: deleted, SpaceReclaimed: reclaimed };
  }

  /** User-defined local networks no running container is on (dockerd prunes swarm networks through the swarm). */
  pruneNetworks(filters: PruneFilters): Promise<NetworksPruned> {
    return this.exclusive('daemon', () => this.removeNetworks(filters));
  }

  private async removeNetworks(filters: PruneFilters): Promise<NetworksPruned> {
    const { networks } = this.options;
    const chosen = [...networks].filter(
      (network: Network) => !network.builtin && network.scope === 'local' && network.endpoints.size === 0 && selectedBy(filters, network.settings.labels, network.created),
    );
    const deleted: string[] = [];
    for (const network of chosen) {
      if (await this.removed(() => networks.remove(network))) deleted.push(network.name);
    }
    this.publish('network', 0);
    return { NetworksDeleted: deleted };
  }

  /** Whether the removal went through; one that another client won (gone, in use by now) is skipped, as dockerd skips it. */
  private async removed(removal: () => void | Promise<void>): Promise<boolean> {
    try {
      await removal();
      return true;
    } catch (error) {
      if (error instanceof ConflictError || error instanceof ForbiddenError || error instanceof NotFoundError) return false;
      throw error;
    }
  }

  private publish(type: EngineEventType, reclaimed: number): void {
    this.options.events.publish({ type, action: 'prune', actorId: '', attributes: { reclaimed: String(reclaimed) }, time: this.options.clock() });
  }
}
