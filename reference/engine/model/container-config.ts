/**
 * A container's configuration as the engine keeps it: what the create request gave, completed from
 * the image (command, environment, labels, working directory) and with the engine's defaults for the rest.
 */
import type { Image } from './image.ts';
import { MissingCommandError } from './errors.ts';

export interface ContainerConfig {
  Hostname: string;
  Domainname: string;
  User: string;
  AttachStdin: boolean;
  AttachStdout: boolean;
  AttachStderr: boolean;
  Tty: boolean;
  OpenStdin: boolean;
  StdinOnce: boolean;
  Env: string[];
  Cmd: string[] | null;
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
  return {
    Hostname: spec.Hostname || id.slice(0, 12),
    Domainname: spec.Domainname ?? '',
    User: spec.User ?? '',
    AttachStdin: spec.AttachStdin ?? false,
    AttachStdout: spec.AttachStdout ?? false,
    AttachStderr: spec.AttachStderr ?? false,
    Tty: spec.Tty ?? false,
    OpenStdin: spec.OpenStdin ?? false,
    StdinOnce: spec.StdinOnce ?? false,
    Env: mergeEnv(spec.Env ?? [], image.config.Env),
    Cmd: cmd === null ? null : [...cmd],
    Entrypoint: entrypoint?.length ? [...entrypoint] : null,
    Image: spec.Image,
    Labels: { ...image.config.Labels, ...spec.Labels },
    Volumes: spec.Volumes ? structuredClone(spec.Volumes) : null,
    WorkingDir: spec.WorkingDir || image.config.WorkingDir,
    OnBuild: null,
    StopSignal: spec.StopSignal ?? '',
  };
}

/** The request's variables first, then the image's that the request does not set. */
function mergeEnv(given: string[], fromImage: string[]): string[] {
  const keyOf = (entry: string) => entry.split('=', 1)[0];
  const givenKeys = new Set(given.map(keyOf));
  return [...given, ...fromImage.filter((entry) => !givenKeys.has(keyOf(entry)))];
}
