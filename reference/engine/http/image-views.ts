/** Images as each API version shows them: list item and inspect object (spec/2 §2.1). */
import { atLeast } from '../../../harness/versions.ts';
import { goConfig } from '../model/image-document.ts';
import type { Image } from '../model/image.ts';
import { formatTimestamp, unixSeconds } from '../model/timestamps.ts';

export function imageSummary(image: Image, version: string, withDigests: boolean): Record<string, unknown> {
  return {
    Id: image.id,
    ...(image.parent !== '' && { ParentId: image.parent }),
    RepoTags: image.repoTags,
    ...(withDigests && { RepoDigests: image.repoDigests }),
    Created: unixSeconds(image.created),
    Size: image.size,
    VirtualSize: image.size,
    ...(atLeast(version, '1.20') && { Labels: image.config.Labels }),
  };
}

export function imageInspect(image: Image, version: string): Record<string, unknown> {
  return {
    Id: image.id,
    ...(atLeast(version, '1.21') && { RepoTags: image.repoTags, RepoDigests: image.repoDigests }),
    Parent: image.parent,
    Comment: image.comment,
    Created: formatTimestamp(image.created),
    Container: image.container,
    ContainerConfig: goConfig(image.containerConfig),
    DockerVersion: image.dockerVersion,
    Author: image.author,
    Config: goConfig(image.config),
    Architecture: image.architecture,
    Os: image.os,
    Size: image.size,
    VirtualSize: image.size,
  };
}
