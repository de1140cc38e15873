/**
 * A container's configuration as the engine keeps it: what the create request gave, completed from
 * the image (command, environment, labels, working directory, user, ports, volumes, stop signal,
 * healthcheck: dockerd's merge) and with the engine's defaults for the rest. Fields are in Go's
 * container.Config order, which is the order inspect shows them in.
 */
import type { HealthConfig, Image } from './image.ts';
import { MissingCommandError } from './errors.ts';

export interface ContainerConfig {
  Hostname: string;
  Domainname: string;
  User: string;
  AttachStdin: boolean;
  AttachStdout: boolean;
  AttachStderr: boolean;
  /** `80/tcp` → `{}`; absent when none */
  ExposedPorts?: Record<string, object>;
  Tty: boolean;
  OpenStdin: boolean;
  StdinOnce: boolean;
  Env: string[];
  Cmd: string[] | null;
  Healthcheck?: HealthConfig;
  Entrypoint: string[] | null;
  Image: string;
  Labels: Record<string, string>;
  Volumes: Record<string, object> | null;
  WorkingDir: string;
  OnBuild: string[] | null;
  /** '' for the default, SIGTERM */
  StopSignal: string;
}

/** The part of a create request the model keeps; the rest takes defaults. */
export interface ContainerSpec {
  Image: string;
  Cmd?: string[] | null;
  /** an empty list means "none", without inheriting the image's */
  Entrypoint?: string[] | null;
  Env?: string[] | null;
  Labels?: Record<string, string> | null;
  Hostname?: string;
  Domainname?: string;
  User?: string;
  AttachStdin?: boolean;
  AttachStdout?: boolean;
  AttachStderr?: boolean;
  Tty?: boolean;
  OpenStdin?: boolean;
  StdinOnce?: boolean;
  ExposedPorts?: Record<string, object> | null;
  Volumes?: Record<string, object> | null;
  WorkingDir?: string;
  StopSignal?: string;
}

/** The engine's merge: the image fills in what the request leaves empty. */
export function completeConfig(spec: ContainerSpec, image: Image, id: string): ContainerConfig {
  const noEntrypoint = !spec.Entrypoint?.length;
  const cmd = noEntrypoint && !spec.Cmd?.length ? image.config.Cmd : (spec.Cmd ?? null);
  const entrypoint = noEntrypoint && spec.Entrypoint == null ? image.config.Entrypoint : (spec.Entrypoint ?? null);
  if (!cmd?.length && !entrypoint?.length) throw new MissingCommandError();
  const exposedPorts = mergedMap(spec.ExposedPorts, image.config.ExposedPorts);
  const volumes = mergedMap(spec.Volumes, image.config.Volumes);
  const healthcheck = image.config.Healthcheck;
  return {
    Hostname: spec.Hostname || id.slice(0, 12),
    Domainname: spec.Domainname ?? '',
    User: spec.User || image.config.User,
    AttachStdin: spec.AttachStdin ?? false,
    AttachStdout: spec.AttachStdout ?? false,
    AttachStderr: spec.AttachStderr ?? false,
    ...(exposedPorts && { ExposedPorts: exposedPorts }),
    Tty: spec.Tty ?? false,
    OpenStdin: spec.OpenStdin ?? false,
    StdinOnce: spec.StdinOnce ?? false,
    Env: mergeEnv(spec.Env ?? [], image.config.Env),
    Cmd: cmd === null ? null : [...cmd],
    ...(healthcheck && { Healthcheck: structuredClone(healthcheck) }),
    Entrypoint: entrypoint?.length ? [...entrypoint] : null,
    Image: spec.Image,
    Labels: { ...image.config.Labels, ...spec.Labels },
    Volumes: volumes ?? null,
    WorkingDir: spec.WorkingDir || image.config.WorkingDir,
    OnBuild: null,
    StopSignal: spec.StopSignal || (image.config.StopSignal ?? ''),
  };
}

/** The request's entries plus the image's (ports, volumes); undefined when neither has any (an empty map counts as none). */
function mergedMap(given: Record<string, object> | null | undefined, fromImage: Record<string, object> | null): Record<string, object> | undefined {
  const own = given && Object.keys(given).length > 0 ? given : undefined;
  if (!own && !fromImage) return undefined;
  return structuredClone({ ...fromImage, ...own });
}

/** The request's variables first, then the image's that the request does not set. */
function mergeEnv(given: string[], fromImage: string[]): string[] {
  const keyOf = (entry: string) => entry.split('=', 1)[0];
  const givenKeys = new Set(given.map(keyOf));
  return [...given, ...fromImage.filter((entry) => !givenKeys.has(keyOf(entry)))];
}
