/**
 * What a build file's instructions change: the fields of a container config (dockerd's
 * container.Config) that the builder's dispatchers set. The builder defines them and imports nothing
 * of the engine; the engine's image config has them all, so a build's stage, a commit's and an
 * import's config can be changed by the same instructions.
 */

/** HEALTHCHECK: the test (`["NONE"]`, `["CMD", …]`, `["CMD-SHELL", "…"]`) and its timings in nanoseconds, 0 for the default. */
export interface HealthConfig {
  Test: string[];
  Interval?: number;
  Timeout?: number;
  StartPeriod?: number;
  Retries?: number;
}

export interface RunConfig {
  User: string;
  /** `80/tcp` → `{}` */
  ExposedPorts: Record<string, object> | null;
  Env: string[];
  Cmd: string[] | null;
  Healthcheck?: HealthConfig;
  Volumes: Record<string, object> | null;
  WorkingDir: string;
  Entrypoint: string[] | null;
  OnBuild: string[] | null;
  Labels: Record<string, string>;
  StopSignal?: string;
  /** SHELL: what the shell form of RUN, CMD and ENTRYPOINT runs through; absent: {@link DEFAULT_SHELL} */
  Shell?: string[];
}

export const DEFAULT_SHELL: readonly string[] = ['/bin/sh', '-c'];

/** The shell the config's shell-form commands run through. */
export function shellOf(config: Pick<RunConfig, 'Shell'>): string[] {
  return [...(config.Shell !== undefined && config.Shell.length > 0 ? config.Shell : DEFAULT_SHELL)];
}
