/** Images as each API version shows them: list item and inspect object (spec/2 §2.1). */
import { atLeast } from '../../../harness/versions.ts';
import { goConfig } from '../model/image-document.ts';
import type { HistoryStep } from '../model/image-history.ts';
import type { Image } from '../model/image.ts';
import { STORAGE_DRIVER } from '../model/daemon-build.ts';
import { formatTimestamp, unixSeconds, ZERO_TIME } from '../model/timestamps.ts';

/** An untagged image is listed with dockerd's placeholder names. */
/** `names`: the image's names the list shows (a reference filter narrows them). */
export function imageSummary(image: Image, names: Pick<Image, 'repoTags' | 'repoDigests'>, version: string, withDigests: boolean): Record<string, unknown> {
  const untagged = names.repoTags.length === 0 && names.repoDigests.length === 0;
  return {
    Id: image.id,
    ...(image.parent !== '' && { ParentId: image.parent }),
    RepoTags: untagged ? ['<none>:<none>'] : names.repoTags,
    ...(withDigests && { RepoDigests: untagged ? ['<none>@<none>'] : names.repoDigests }),
    Created: unixSeconds(image.created),
    Size: image.size,
    VirtualSize: image.size,
    ...(atLeast(version, '1.20') && { Labels: labelsView(image.config.Labels) }),
    // counted only by `system df`; -1 here, as on dockerd
    ...(atLeast(version, '1.25') && { SharedSize: -1, Containers: -1 }),
  };
}

/**
 * The spec's fields (RepoTags and RepoDigests from 1.21; Dns and VolumesFrom in ContainerConfig) and
 * what dockerd adds at every version (GraphDriver, RootFS, Metadata).
 */
export function imageInspect(image: Image, version: string): Record<string, unknown> {
  return {
    Id: image.id,
    ...(atLeast(version, '1.21') && { RepoTags: image.repoTags, RepoDigests: image.repoDigests }),
    Parent: image.parent,
    Comment: image.comment,
    Created: formatTimestamp(image.created),
    Container: image.container,
    ContainerConfig: { ...goConfig(image.containerConfig), Dns: null, VolumesFrom: '' },
    DockerVersion: image.dockerVersion,
    Author: image.author,
    Config: goConfig(image.config),
    Architecture: image.architecture,
    Os: image.os,
    Size: image.size,
    VirtualSize: image.size,
    GraphDriver: { Data: null, Name: STORAGE_DRIVER },
    RootFS: { Type: 'layers', Layers: image.diffIds },
    Metadata: { LastTagTime: image.lastTagTime ? formatTimestamp(image.lastTagTime) : ZERO_TIME },
  };
}

/** No labels is `null` (Go's nil map), as dockerd lists an image that never set any. */
function labelsView(labels: Record<string, string>): Record<string, string> | null {
  return Object.keys(labels).length > 0 ? labels : null;
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
