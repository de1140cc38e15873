/**
 * The registries the engine pulls from and pushes to, as the model sees them: a repository on a
 * registry, opened with credentials for the actions wanted, and a login. How they are reached lives
 * in `../registry-client/`; the reference reaches registries on the loopback only (the fixture
 * registry, a local distribution) and answers for any other host the way dockerd without network does.
 */
import { EngineError } from '../common/errors.ts';
import { qualifiedName, type ImageReference } from './image-reference.ts';

/**
 * What X-Registry-Auth (or POST /auth) carries: a user's password, an identity token from an earlier
 * login, or a registry token, which goes to the registry as the bearer token it is.
 */
export interface RegistryCredentials {
  username?: string;
  password?: string;
  identityToken?: string;
  registryToken?: string;
}

export interface FetchedManifest {
  mediaType: string;
  body: Buffer;
  /** sha256 of body, as the registry named it */
  digest: string;
}

/** One repository of a registry, authenticated for the actions it was opened for. */
export interface RegistryRepository {
  manifest(reference: string): Promise<FetchedManifest>;
  blob(digest: string): Promise<Buffer>;
  hasBlob(digest: string): Promise<boolean>;
  putBlob(digest: string, content: Buffer): Promise<void>;
  /** @returns the digest the registry gave the manifest */
  putManifest(tag: string, mediaType: string, body: Buffer): Promise<string>;
}

export interface Registries {
  /** @param path the repository's name on the registry, e.g. `alice/app`, `library/busybox` */
  open(host: string, path: string, actions: ReadonlyArray<'pull' | 'push'>, credentials: RegistryCredentials): Promise<RegistryRepository>;
  /** @returns the identity token the registry's token service issued ('' when none) */
  login(host: string, credentials: RegistryCredentials): Promise<string>;
}

/** dockerd's answer when it cannot reach a registry: a 500 (or a stream error once a push has begun). */
export class RegistryUnreachableError extends EngineError {
  override name = 'RegistryUnreachableError';

  /** @param url what dockerd tried to GET */
  constructor(url: string) {
    super(`Get ${JSON.stringify(url)}: dial tcp: lookup ${new URL(url).hostname}: no such host`);
  }
}

/** The registry or its token service refused the credentials (dockerd: `unauthorized: …`). */
export class RegistryUnauthorizedError extends EngineError {
  override name = 'RegistryUnauthorizedError';
}

/** An error the registry answered with, as distribution's client words it: `manifest unknown: manifest unknown`. */
export class RegistryRefusal extends EngineError {
  override name = 'RegistryRefusal';

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code.toLowerCase().replace(/_/g, ' ')}: ${message}`);
  }
}

/**
 * A line of a pull's or push's progress, as dockerd's progress output has them: a message
 * (`Pulling from …`, `Digest: …`), a layer's step (`Pulling fs layer`, `Pushed`), a layer's
 * progress with counts, or the push's result.
 */
export type RegistryProgress =
  | { kind: 'message'; text: string; id?: string }
  | { kind: 'update'; status: string; id: string }
  | { kind: 'progress'; status: string; id: string; current: number; total: number }
  | { kind: 'aux'; tag: string; digest: string; size: number };

/** No registry reachable: what the engine does without a registry client. */
export const offlineRegistries: Registries = {
  open: (host) => Promise.reject(new RegistryUnreachableError(`https://${host}/v2/`)),
  login: (host) => Promise.reject(new RegistryUnreachableError(`https://${host}/v2/`)),
};

/** The registry host of a repository: Docker Hub's for names without one. */
export function registryHost(repository: string): string {
  const full = qualifiedName(repository);
  const host = full.slice(0, full.indexOf('/'));
  return host === 'docker.io' ? 'registry-1.docker.io' : host;
}

/** The repository's name on its registry: `alice/app` of `127.0.0.1:5000/alice/app`, `library/busybox` of `busybox`. */
export function remoteName(repository: string): string {
  const full = qualifiedName(repository);
  return full.slice(full.indexOf('/') + 1);
}

/** What a push says first: the repository in full, `docker.io/library/busybox`. */
export function pushAnnouncement(reference: ImageReference): string {
  return `The push refers to repository [${qualifiedName(reference.repository)}]`;
}

/** A pull that found nothing to pull: `manifest for … not found`, a 500 as spec/2 §4.1 lists (dockerd: 404). */
export class ManifestNotFoundError extends EngineError {
  override name = 'ManifestNotFoundError';
}

/**
 * POST /auth: dockerd's Status, and the identity token when the registry's token service gives one.
 * Credentials written into the address (`user:password@host`) are dropped, as dockerd drops them, so
 * that no error message ever repeats them.
 */
export async function login(registries: Registries, serverAddress: string, credentials: RegistryCredentials): Promise<{ status: string; identityToken: string }> {
  const host = serverAddress.replace(/^https?:\/\//, '').replace(/^.*@/, '').replace(/\/.*$/, '') || 'registry-1.docker.io';
  const identityToken = await registries.login(host === 'index.docker.io' || host === 'docker.io' ? 'registry-1.docker.io' : host, credentials);
  return { status: 'Login Succeeded', identityToken };
}
