/** Images as each API version shows them: list item and inspect object (spec/2 §2.1). */
import { atLeast } from '../../../protocol/versions.ts';
import { goConfig } from '../model/images/image-document.ts';
import type { HistoryStep } from '../model/images/image-history.ts';
import type { Image } from '../model/images/image.ts';
import { STORAGE_DRIVER } from '../model/common/daemon-build.ts';
import { formatTimestamp, unixSeconds, ZERO_TIME } from '../model/common/timestamps.ts';
import type { AnswerShape } from './personality.ts';

type ImageShape = Pick<AnswerShape, 'version' | 'personality'>;

/**
 * `names`: the image's names the list shows (a reference filter may narrow them). An untagged image
 * may be listed with dockerd's placeholder names.
 */
export function imageSummary(image: Image, names: Pick<Image, 'repoTags' | 'repoDigests'>, { version, personality }: ImageShape, withDigests: boolean): Record<string, unknown> {
  const placeholders = personality.untaggedPlaceholders && names.repoTags.length === 0 && names.repoDigests.length === 0;
  return {
    Id: image.id,
    ...(image.parent !== '' && { ParentId: image.parent }),
    RepoTags: placeholders ? ['<none>:<none>'] : personality.unordered(names.repoTags),
    ...(withDigests && { RepoDigests: placeholders ? ['<none>@<none>'] : personality.unordered(names.repoDigests) }),
    Created: unixSeconds(image.created),
    Size: image.size,
    VirtualSize: image.size,
    ...(personality.shows(version, '1.20') && { Labels: personality.emptyObject(image.config.Labels) }),
    // counted only by `system df`; -1 here, as on dockerd
    ...(!personality.omitsEmpty && atLeast(version, '1.25') && { SharedSize: -1, Containers: -1 }),
  };
}

/**
 * The spec's fields (RepoTags and RepoDigests from 1.21; Dns and VolumesFrom in ContainerConfig) and
 * what dockerd adds at every version (GraphDriver, RootFS, Metadata; Config, the image's own
 * configuration, where the personality has it: otherwise ContainerConfig carries that one).
 */
export function imageInspect(image: Image, { version, personality }: ImageShape): Record<string, unknown> {
  return {
    Id: image.id,
    ...(personality.shows(version, '1.21') && { RepoTags: personality.unordered(image.repoTags), RepoDigests: personality.unordered(image.repoDigests) }),
    Parent: image.parent,
    Comment: image.comment,
    Created: formatTimestamp(image.created),
    Container: image.container,
    ContainerConfig: { ...goConfig(personality.imageConfigField ? image.containerConfig : image.config), Dns: null, VolumesFrom: '' },
    DockerVersion: image.dockerVersion,
    Author: image.author,
    ...(personality.imageConfigField && { Config: goConfig(image.config) }),
    Architecture: image.architecture,
    Os: image.os,
    Size: image.size,
    VirtualSize: image.size,
    GraphDriver: { Data: null, Name: STORAGE_DRIVER },
    RootFS: { Type: 'layers', Layers: image.diffIds },
    Metadata: { LastTagTime: image.lastTagTime ? formatTimestamp(image.lastTagTime) : ZERO_TIME },
  };
}

/** Comment, Size and Tags are the spec's from 1.25 (dockerd shows them at every version); Tags is "array or null". */
export function historyItem(step: HistoryStep, { version, personality }: ImageShape): Record<string, unknown> {
  const shown = personality.shows(version, '1.25');
  return {
    ...(shown && { Comment: step.comment }),
    Created: unixSeconds(step.created),
    CreatedBy: step.createdBy,
    Id: step.id,
    ...(shown && { Size: step.size, Tags: personality.arrayOrNull(personality.unordered(step.tags)) }),
  };
}
