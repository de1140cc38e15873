/**
 * The registries the engine would talk to, which the reference does not reach: a pull, a push, or a
 * search of any index but the simulated one fails the way dockerd without network fails, naming the
 * endpoint it tried. (Pulling and pushing for real is a later issue.)
 */
import { EngineError } from './errors.ts';
import { qualifiedName, type ImageReference } from './image-reference.ts';

/** dockerd's answer when it cannot reach a registry: a 500 (or a stream error once a push has begun). */
export class RegistryUnreachableError extends EngineError {
  override name = 'RegistryUnreachableError';

  /** @param url what dockerd tried to GET */
  constructor(url: string) {
    super(`Get ${JSON.stringify(url)}: dial tcp: lookup ${new URL(url).hostname}: no such host`);
  }
}

/** The registry host of a repository: Docker Hub's for names without one. */
export function registryHost(repository: string): string {
  const full = qualifiedName(repository);
  const host = full.slice(0, full.indexOf('/'));
  return host === 'docker.io' ? 'registry-1.docker.io' : host;
}

/** POST /images/create?fromImage: the first thing a pull does is reach the registry's v2 endpoint. */
export function pullImage(reference: ImageReference): never {
  throw new RegistryUnreachableError(`https://${registryHost(reference.repository)}/v2/`);
}

/** What a push says first: the repository in full, `docker.io/library/busybox`. */
export function pushAnnouncement(reference: ImageReference): string {
  return `The push refers to repository [${qualifiedName(reference.repository)}]`;
}
