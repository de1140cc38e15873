/** Images as each API version shows them: list item and inspect object (spec/2 §2.1). */
import { atLeast } from '../../../harness/versions.ts';
import type { Image, ImageConfig } from '../model/image.ts';
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
    Comment: '',
    Created: formatTimestamp(image.created),
    Container: '',
    ContainerConfig: configView(image.config),
    DockerVersion: '',
    Author: '',
    Config: configView(image.config),
    Architecture: image.architecture,
    Os: image.os,
    Size: image.size,
    VirtualSize: image.size,
  };
}

/** An image's config in the container-config shape dockerd shows it in, empty where the image sets nothing. */
function configView(config: ImageConfig): Record<string, unknown> {
  return {
    Hostname: '',
    Domainname: '',
    User: '',
    AttachStdin: false,
    AttachStdout: false,
    AttachStderr: false,
    Tty: false,
    OpenStdin: false,
    StdinOnce: false,
    Env: config.Env,
    Cmd: config.Cmd,
    Image: '',
    Volumes: null,
    WorkingDir: config.WorkingDir,
    Entrypoint: config.Entrypoint,
    OnBuild: null,
    Labels: config.Labels,
  };
}
