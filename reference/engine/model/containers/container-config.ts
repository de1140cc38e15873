/**
 * A container's configuration as the engine keeps it: what the create request gave, completed from
 * the image (command, environment, labels, working directory, user, ports, volumes, stop signal,
 * healthcheck: dockerd's merge, which leaves the image's SHELL out) and with the engine's defaults for
 * the rest. Fields are in Go's container.Config order, which is the order inspect shows them in.
 */
import type { HealthConfig, Image, ImageConfig } from '../images/image.ts';
import { MissingCommandError } from '../common/errors.ts';
import { mergeConfig } from '../images/image-config-merge.ts';

/** An image's config, as the container holds it: no ports is none at all, no stop signal is ''. */
export interface ContainerConfig extends Omit<ImageConfig, 'ExposedPorts' | 'StopSignal'> {
  /** `80/tcp` → `{}`; absent when none */
  ExposedPorts?: Record<string, object>;
  /** '' for the default, SIGTERM */
  StopSignal: string;
  /** absent unless set, as dockerd leaves out a false or empty one */
  NetworkDisabled?: boolean;
  MacAddress?: string;
  /** seconds a stop waits before it kills, when the stop request gives none (absent: 10) */
  StopTimeout?: number;
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
  NetworkDisabled?: boolean;
  MacAddress?: string;
  StopSignal?: string;
  /** seconds a stop waits before it kills, when the stop request gives none */
  StopTimeout?: number;
  /** replaces the image's HEALTHCHECK */
  Healthcheck?: HealthConfig;
}

/** The engine's merge: the image fills in what the request leaves empty. */
export function completeConfig(spec: ContainerSpec, image: Image, id: string): ContainerConfig {
  const merged = mergeConfig(spec, image.config);
  if (!merged.Cmd?.length && !merged.Entrypoint?.length) throw new MissingCommandError();
  return {
    Hostname: spec.Hostname || id.slice(0, 12),
    Domainname: spec.Domainname ?? '',
    User: merged.User,
    AttachStdin: spec.AttachStdin ?? false,
    AttachStdout: spec.AttachStdout ?? false,
    AttachStderr: spec.AttachStderr ?? false,
    ...(merged.ExposedPorts && { ExposedPorts: merged.ExposedPorts }),
    Tty: spec.Tty ?? false,
    OpenStdin: spec.OpenStdin ?? false,
    StdinOnce: spec.StdinOnce ?? false,
    Env: merged.Env,
    Cmd: merged.Cmd,
    ...(merged.Healthcheck && { Healthcheck: merged.Healthcheck }),
    Entrypoint: merged.Entrypoint?.length ? merged.Entrypoint : null,
    Image: spec.Image,
    Labels: merged.Labels,
    Volumes: merged.Volumes ?? null,
    WorkingDir: merged.WorkingDir,
    ...(spec.NetworkDisabled && { NetworkDisabled: true }),
    ...(spec.MacAddress && { MacAddress: spec.MacAddress }),
    OnBuild: null,
    StopSignal: merged.StopSignal,
    ...(spec.StopTimeout !== undefined && { StopTimeout: spec.StopTimeout }),
  };
}
