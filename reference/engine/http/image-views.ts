/** Images as each API version shows them: list item and inspect object (spec/2 §2.1). */
import { atLeast } from '../../../harness/versions.ts';
import { goConfig } from '../model/image-document.ts';
import type { HistoryStep } from '../model/image-history.ts';
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

/** Comment, Size and Tags are the spec's from 1.25 (dockerd shows them at every version); no tags is `null`. */
export function historyItem(step: HistoryStep, version: string): Record<string, unknown> {
  return {
    ...(atLeast(version, '1.25') && { Comment: step.comment }),
    Created: unixSeconds(step.created),
    CreatedBy: step.createdBy,
    Id: step.id,
    ...(atLeast(version, '1.25') && { Size: step.size, Tags: step.tags.length > 0 ? step.tags : null }),
  };
}
