/**
 * GET /system/df as dockerd 20.10 counts it: the bytes of the layers every image holds (each layer
 * once), per image how many containers use it and how many of its bytes other images share, per
 * container its own and whole sizes, per volume its bytes and how many containers use it. The spec
 * does not describe this endpoint.
 */
import type { Container } from '../containers/container.ts';
import type { ContainerSize, ContainerStore } from '../containers/container-store.ts';
import { chainIds } from '../images/image-layer-digests.ts';
import type { ImageStore } from '../images/image-store.ts';
import type { Image } from '../images/image.ts';
import { layersSize, volumeSize } from './prune.ts';
import type { VolumeStore } from '../volumes/volume-store.ts';
import type { Volume } from '../volumes/volume.ts';

export interface ImageUsage {
  image: Image;
  /** containers created from it */
  containers: number;
  /** bytes of its layers that another image holds too */
  sharedSize: number;
}

export interface ContainerUsage {
  container: Container;
  size: ContainerSize;
}

export interface VolumeUsage {
  volume: Volume;
  size: number;
  /** containers that use it */
  refCount: number;
}

export interface DiskUsage {
  layersSize: number;
  images: ImageUsage[];
  containers: ContainerUsage[];
  volumes: VolumeUsage[];
}

export function diskUsage(images: ImageStore, containers: ContainerStore, volumes: VolumeStore): DiskUsage {
  const all = images.list({ all: true });
  const holders = new Map<string, number>();
  for (const image of all) for (const chainId of new Set(chainIds(image.diffIds))) holders.set(chainId, (holders.get(chainId) ?? 0) + 1);
  const sharedSize = (image: Image): number => {
    const ids = chainIds(image.diffIds);
    return image.layers.layers.reduce((sum, layer, index) => sum + ((holders.get(ids[index] ?? '') ?? 0) > 1 ? layer.size : 0), 0);
  };
  const everyContainer = [...containers];
  return {
    layersSize: layersSize(all),
    images: all.map((image) => ({ image, containers: everyContainer.filter((container) => container.imageId === image.id).length, sharedSize: sharedSize(image) })),
    containers: everyContainer.map((container) => ({ container, size: containers.sizeOf(container) })),
    volumes: volumes.list().map((volume) => ({ volume, size: volumeSize(volume), refCount: volumes.userCount(volume) })),
  };
}
