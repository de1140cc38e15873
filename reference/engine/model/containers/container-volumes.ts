/**
 * The volumes of containers, through a container's life as dockerd handles them:
 * - create: each named volume the binds give is created if missing, each anonymous one made; the
 *   container uses them all from then on, and an empty one takes what the image holds at its
 *   destination (unless the mode says nocopy);
 * - start: the mount points appear in the container's filesystem, a mount event per volume;
 * - the end of its process: an unmount event per volume;
 * - removal: the container stops using them; with `v` its anonymous volumes go too, when nothing
 *   else uses them. Named ones always stay.
 */
import type { VolumeMount } from '../../filesystem/volume-mounts.ts';
import type { Container } from './container.ts';
import type { HostConfig } from './host-config.ts';
import { mountSpecsOf, type ContainerMount } from './mount-specs.ts';
import type { VolumeEvents } from '../volumes/volume-events.ts';
import type { VolumeStore } from '../volumes/volume-store.ts';

/** What a container's filesystem mounts: its volumes and its binds' host directories. */
export function volumeMountsOf(mounts: readonly ContainerMount[]): VolumeMount[] {
  return mounts.flatMap(({ volume, hostFiles, destination, rw }) => {
    const tree = volume?.files ?? hostFiles;
    return tree ? [{ destination, tree, readOnly: !rw }] : [];
  });
}

export class ContainerVolumes {
  constructor(
    private readonly volumes: VolumeStore,
    private readonly events: VolumeEvents,
  ) {}

  /**
   * The mounts of a container being created with these settings, its volumes made and in its use.
   * When one cannot be made, those made before it are let go as a removal with `v` would.
   */
  mountsFor(containerId: string, hostConfig: HostConfig, configVolumes: Record<string, object> | null): ContainerMount[] {
    const binds = Array.isArray(hostConfig.Binds) ? hostConfig.Binds.filter((bind): bind is string => typeof bind === 'string') : [];
    const mounts: ContainerMount[] = [];
    try {
      for (const spec of mountSpecsOf(binds, configVolumes)) {
        if (spec.type === 'bind') {
          mounts.push({ ...spec, hostFiles: this.volumes.hostDirectory(spec.source) });
          continue;
        }
        const volume = this.volumes.create({ name: spec.source, driver: hostConfig.VolumeDriver as string | undefined });
        this.volumes.use(volume, containerId);
        mounts.push({ ...spec, volume });
      }
    } catch (error) {
      this.release(containerId, mounts, true);
      throw error;
    }
    return mounts;
  }

  /** Fills each empty volume the container mounts with what its image holds there, but where the mode says nocopy. */
  populate(container: Container): void {
    for (const { volume, destination, copyData } of container.mounts) {
      if (volume && copyData) container.filesystem.populateVolume(destination);
    }
  }

  mount(container: Container): void {
    container.filesystem.createMountPoints();
    for (const { volume, destination, propagation, rw } of container.mounts) {
      if (volume) this.events.mounted(volume, { containerId: container.id, destination, propagation, rw });
    }
  }

  unmount(container: Container): void {
    for (const { volume } of container.mounts) if (volume) this.events.unmounted(volume, container.id);
  }

  /** The container is gone: it no longer uses its volumes; with `removeAnonymous` its anonymous ones that nothing else uses go. */
  remove(container: Container, removeAnonymous: boolean): void {
    this.release(container.id, container.mounts, removeAnonymous);
  }

  private release(containerId: string, mounts: readonly ContainerMount[], removeAnonymous: boolean): void {
    for (const { volume, source } of mounts) {
      if (!volume) continue;
      this.volumes.release(volume, containerId);
      if (removeAnonymous && source === '' && !this.volumes.inUse(volume)) this.volumes.remove(volume.name);
    }
  }
}
