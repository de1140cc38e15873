/**
 * POST /commit as dockerd's CreateImageFromContainer does it: a running container is paused for the
 * while (pause and unpause events), the new image's config is the given one (else the container's)
 * with the changes applied and the container's config merged under it, its container_config is the
 * container's, its layer the container's writable layer (none when nothing changed: an empty_layer
 * step), its parent the container's image. The name is checked first: a bad one is the client's
 * mistake, 400 before anything is made (dockerd checks it after making the image, and answers 500).
 * Publishes the container's `commit` event.
 */
import { applyConfigChanges } from '../../builder/config-changes.ts';
import type { ContainerConfig } from './container-config.ts';
import type { ContainerEvents } from './container-events.ts';
import type { ContainerLifecycle } from './container-lifecycle.ts';
import type { Container } from './container.ts';
import { mergeConfig } from '../images/image-config-merge.ts';
import { checkedImageReference, checkedTag, familiarAsGiven } from '../images/image-reference.ts';
import type { ImageStore } from '../images/image-store.ts';
import type { Image, ImageConfig } from '../images/image.ts';

export interface CommitOptions {
  repo?: string;
  tag?: string;
  comment?: string;
  author?: string;
  /** pause a running container while committing */
  pause: boolean;
  /** Dockerfile lines (CMD, ENV, …) applied to the config */
  changes?: string[];
  /** the config the request gave (absent: the container's) */
  config?: ImageConfig;
}

export class ContainerCommits {
  constructor(private readonly options: { images: ImageStore; lifecycle: ContainerLifecycle; events: ContainerEvents }) {}

  async commit(container: Container, request: CommitOptions): Promise<Image> {
    const name = request.repo ? commitName(request.repo, request.tag ?? '') : '';
    const pausing = request.pause && container.state.Running && !container.state.Paused && !container.state.Restarting;
    if (pausing) this.options.lifecycle.pause(container);
    try {
      return await this.commitPaused(container, request, name);
    } finally {
      if (pausing && container.state.Paused) this.options.lifecycle.unpause(container);
    }
  }

  private async commitPaused(container: Container, request: CommitOptions, name: string): Promise<Image> {
    const { images, events } = this.options;
    const containerConfig = imageConfigOf(container.config);
    const changed = applyConfigChanges(request.config ?? containerConfig, request.changes ?? []);
    const merged = mergeConfig(changed, containerConfig);
    const config: ImageConfig = {
      Hostname: changed.Hostname,
      Domainname: changed.Domainname,
      User: merged.User,
      AttachStdin: changed.AttachStdin,
      AttachStdout: changed.AttachStdout,
      AttachStderr: changed.AttachStderr,
      ExposedPorts: merged.ExposedPorts ?? null,
      Tty: changed.Tty,
      OpenStdin: changed.OpenStdin,
      StdinOnce: changed.StdinOnce,
      Env: merged.Env,
      Cmd: merged.Cmd,
      ...(merged.Healthcheck && { Healthcheck: merged.Healthcheck }),
      Image: changed.Image,
      Volumes: merged.Volumes ?? null,
      WorkingDir: merged.WorkingDir,
      Entrypoint: merged.Entrypoint,
      ...(changed.NetworkDisabled === true && { NetworkDisabled: true }),
      OnBuild: changed.OnBuild,
      Labels: merged.Labels,
      ...(merged.StopSignal !== '' && { StopSignal: merged.StopSignal }),
    };
    const layer = container.filesystem.commitLayer();
    const image = await images.create({
      parent: images.byId(container.imageId),
      ...(layer.entries().length > 0 && { layer }),
      config,
      containerConfig,
      container: container.id,
      comment: request.comment ?? '',
      author: request.author ?? '',
      createdBy: (containerConfig.Cmd ?? []).join(' '),
    });
    if (name) this.options.images.tag(image, name);
    events.publish(container, 'commit', { comment: request.comment ?? '', imageID: image.id, imageRef: name });
    return image;
  }

}

/** The name the new image gets; a malformed repo or tag is refused in dockerd's words. */
function commitName(repo: string, tag: string): string {
  const reference = checkedImageReference(repo);
  return familiarAsGiven(tag ? { repository: reference.repository, tag: checkedTag(tag) } : reference);
}

/** A container's config as an image carries it. */
function imageConfigOf({ ExposedPorts, Healthcheck, StopSignal, ...config }: ContainerConfig): ImageConfig {
  return {
    ...structuredClone(config),
    ExposedPorts: ExposedPorts ? structuredClone(ExposedPorts) : null,
    ...(Healthcheck && { Healthcheck: structuredClone(Healthcheck) }),
    ...(StopSignal !== '' && { StopSignal }),
  };
}
