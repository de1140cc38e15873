/**
 * dockerd's merge of a config with the image's (or, for a commit, the container's) config under it:
 * what the given config leaves empty comes from below; Env, Labels, ExposedPorts and Volumes add up
 * (the given entries win); a healthcheck takes from below each part it leaves empty (its test, each
 * timing, its retries); the command comes from below only when neither an entrypoint nor a command is
 * given.
 */
import type { HealthConfig, ImageConfig } from './image.ts';

/** The fields merge fills in; each may be absent (or null) in what is given. */
export interface MergeableConfig {
  User?: string;
  ExposedPorts?: Record<string, object> | null;
  Env?: string[] | null;
  Cmd?: string[] | null;
  Entrypoint?: string[] | null;
  Healthcheck?: HealthConfig;
  Labels?: Record<string, string> | null;
  WorkingDir?: string;
  Volumes?: Record<string, object> | null;
  StopSignal?: string;
}

export interface MergedConfig {
  User: string;
  /** undefined when neither side has any */
  ExposedPorts: Record<string, object> | undefined;
  Env: string[];
  Cmd: string[] | null;
  Entrypoint: string[] | null;
  Healthcheck: HealthConfig | undefined;
  Labels: Record<string, string>;
  WorkingDir: string;
  Volumes: Record<string, object> | undefined;
  StopSignal: string;
}

export function mergeConfig(given: MergeableConfig, below: ImageConfig): MergedConfig {
  const noEntrypoint = !given.Entrypoint?.length;
  return {
    User: given.User || below.User,
    ExposedPorts: mergedMap(given.ExposedPorts, below.ExposedPorts),
    Env: mergeEnv(given.Env ?? [], below.Env),
    Cmd: structuredClone(noEntrypoint && !given.Cmd?.length ? below.Cmd : (given.Cmd ?? null)),
    Entrypoint: structuredClone(noEntrypoint && given.Entrypoint == null ? below.Entrypoint : (given.Entrypoint ?? null)),
    Healthcheck: mergedHealthcheck(given.Healthcheck, below.Healthcheck),
    Labels: { ...below.Labels, ...given.Labels },
    WorkingDir: given.WorkingDir || below.WorkingDir,
    Volumes: mergedMap(given.Volumes, below.Volumes),
    StopSignal: given.StopSignal || (below.StopSignal ?? ''),
  };
}

/** A healthcheck whose empty parts (test, timings, retries) come from the one below; either alone when the other is absent. */
export function mergedHealthcheck(given: HealthConfig | undefined, below: HealthConfig | undefined): HealthConfig | undefined {
  if (given === undefined || below === undefined) return structuredClone(given ?? below);
  const Interval = given.Interval || below.Interval;
  const Timeout = given.Timeout || below.Timeout;
  const StartPeriod = given.StartPeriod || below.StartPeriod;
  const Retries = given.Retries || below.Retries;
  return {
    Test: [...(given.Test.length > 0 ? given.Test : below.Test)],
    ...(Interval && { Interval }),
    ...(Timeout && { Timeout }),
    ...(StartPeriod && { StartPeriod }),
    ...(Retries && { Retries }),
  };
}

/** The given variables first, then those from below that the given ones do not set. */
function mergeEnv(given: string[], below: string[]): string[] {
  const keyOf = (entry: string) => entry.split('=', 1)[0];
  const givenKeys = new Set(given.map(keyOf));
  return [...given, ...below.filter((entry) => !givenKeys.has(keyOf(entry)))];
}

/** Both sides' entries (ports, volumes), the given ones winning; undefined when neither has any (an empty map counts as none). */
function mergedMap(given: Record<string, object> | null | undefined, below: Record<string, object> | null): Record<string, object> | undefined {
  const own = given && Object.keys(given).length > 0 ? given : undefined;
  if (!own && !below) return undefined;
  return structuredClone({ ...below, ...own });
}
