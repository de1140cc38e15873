/**
 * Steps many checks take with a container: create it at the version under test, start it, inspect
 * it, wait for it to exit. Each step asserts the answer it depends on, so a target that cannot take
 * the step fails the check there and says which request it was. Every container is created through
 * `make` (or tracked by it) and goes with the check.
 */
import type { CheckContext } from '../harness/check.ts';
import type { ApiResponse } from '../harness/client/api-response.ts';
import { CONTAINER_STATES } from '../harness/schemas/container-schemas.ts';
import { decodeFrames } from '../harness/streams/frame-decoder.ts';
import { until } from '../harness/wait-until.ts';
import { atLeast } from '../protocol/versions.ts';

export interface ContainerState {
  /** from 1.21 */
  Status?: string;
  Running: boolean;
  Paused: boolean;
  Restarting?: boolean;
  /** at 1.25 */
  Dead?: boolean;
  ExitCode: number;
  StartedAt: string;
}

/** A state of spec/1 §3, as the list filter and State.Status name it. */
export type ContainerStatus = (typeof CONTAINER_STATES)[number];

/** One mount of a container, as inspect's Mounts shows it (spec/1 §2.1). */
export interface ContainerMount {
  Type?: string;
  Name?: string;
  Source: string;
  Destination: string;
  Driver?: string;
  Mode?: string;
  RW: boolean;
  Propagation?: string;
}

/** Creation fields besides Image, which is always the fixture image. */
export type ContainerConfig = Record<string, unknown>;

/**
 * POST /containers/create at the version under test, labelled with the run. A container the target
 * creates is removed after the check; the answer is returned as it came, refusals included.
 */
export async function createContainer({ engine, make }: CheckContext, body: Record<string, unknown>, name = make.uniqueName('c')): Promise<ApiResponse> {
  const labels = { ...(body.Labels as Record<string, string> | undefined), ...make.labels };
  const res = await engine.post('/containers/create', { query: { name }, json: { ...body, Labels: labels } });
  if (res.status === 201) {
    const { Id } = res.json<{ Id: string }>();
    make.track(`container ${name}`, async () => {
      await engine.delete(`/containers/${Id}`, { query: { force: 1, v: 1 } });
    });
  }
  return res;
}

export async function startContainer({ engine, expect }: CheckContext, id: string): Promise<void> {
  const res = await engine.post(`/containers/${id}/start`);
  expect(res.status, 'POST /containers/{id}/start status').toBe(204);
}

export async function pauseContainer({ engine, expect }: CheckContext, id: string): Promise<void> {
  const res = await engine.post(`/containers/${id}/pause`);
  expect(res.status, 'POST /containers/{id}/pause status').toBe(204);
}

/** A container of the fixture image, created through `make` and never started; its command is `true` unless `config` says otherwise. */
export function createdContainer(context: CheckContext, config: ContainerConfig = {}, name?: string): Promise<string> {
  return context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], ...config }, name);
}

/** Creates a container of the fixture image with `config` and starts it; returns its id. */
export async function startedContainer(context: CheckContext, config: ContainerConfig): Promise<string> {
  const id = await context.make.container({ Image: context.session.fixtureImage, ...config });
  await startContainer(context, id);
  return id;
}

/** GET /containers/{id}/json, which must answer 200. */
export async function inspectContainer<T = Record<string, unknown>>({ engine, expect }: CheckContext, id: string, query?: Record<string, string>): Promise<T> {
  const res = await engine.get(`/containers/${id}/json`, { query });
  expect(res.status, 'GET /containers/{id}/json status').toBe(200);
  return res.json<T>();
}

/** The fields of an inspect object that tell its mounts. */
export interface InspectedMounts {
  Mounts?: ContainerMount[] | null;
  /** 1.18 */
  Volumes?: Record<string, string> | null;
  /** 1.18 */
  VolumesRW?: Record<string, boolean> | null;
}

/**
 * The mounts an inspect object shows: its Mounts; where it has none, the 1.18 maps Volumes
 * (destination → host path) and VolumesRW (destination → writable). Whether Mounts must be there is
 * containers.inspect.schema's rule alone, so that a check about what is mounted tests that at every
 * version (dockerd shows the maps instead of Mounts before 1.20).
 */
export function mountsIn(inspected: InspectedMounts): ContainerMount[] {
  if (inspected.Mounts) return inspected.Mounts;
  return Object.entries(inspected.Volumes ?? {}).map(([Destination, Source]) => ({ Source, Destination, RW: inspected.VolumesRW?.[Destination] ?? false }));
}

/**
 * Asserts that inspect's State describes a container in state `expected` (spec/1 §2.2, §3): from 1.21
 * State.Status names it, and the booleans agree with it: Paused only when paused, Restarting only when
 * restarting, Dead (1.25) only when dead, Running when running and not once created, exited or dead.
 * (Whether Running stays true while paused or restarting the spec does not say.)
 */
export function expectStateOf({ expect, version }: CheckContext, state: ContainerState, expected: ContainerStatus, what = 'State'): void {
  const seen: Record<string, unknown> = { Paused: state.Paused, Restarting: state.Restarting };
  const wanted: Record<string, unknown> = { Paused: expected === 'paused', Restarting: expected === 'restarting' };
  if (expected !== 'paused' && expected !== 'restarting') {
    seen.Running = state.Running;
    wanted.Running = expected === 'running';
  }
  if (atLeast(version, '1.21')) {
    seen.Status = state.Status;
    wanted.Status = expected;
  }
  if (atLeast(version, '1.25')) {
    seen.Dead = state.Dead;
    wanted.Dead = expected === 'dead';
  }
  expect(seen, `${what} of a ${expected} container at ${version}: ${JSON.stringify(state)}`).toEqual(wanted);
}

export async function containerState(context: CheckContext, id: string): Promise<ContainerState> {
  return (await inspectContainer<{ State: ContainerState }>(context, id)).State;
}

/**
 * Waits until the container is no longer running and shows a state of the spec; returns that state.
 * Podman passes through a `stopped` of its own between the exit and its clean-up, in which it refuses
 * an attach with 500: the wait goes on until the exit has settled.
 */
export function exitedState(context: CheckContext, id: string, what = 'the container to exit'): Promise<ContainerState> {
  return until(() => containerState(context, id), (seen) => !seen.Running && (seen.Status === undefined || (CONTAINER_STATES as readonly string[]).includes(seen.Status)), { what });
}

/** Creates a container of the fixture image with `config` and runs it to its end; returns its id. */
export async function exitedContainer(context: CheckContext, config: ContainerConfig): Promise<string> {
  const id = await startedContainer(context, config);
  await exitedState(context, id);
  return id;
}

/** Runs `cmd` in a container without a Tty (its output multiplexed) to its end; returns the container id. */
export function exitedWithoutTty(context: CheckContext, cmd: string[]): Promise<string> {
  return exitedContainer(context, { Cmd: cmd, Tty: false });
}

/** What a container without a Tty wrote to stdout, read from its log, which must answer 200. */
export async function loggedStdout({ engine, expect }: CheckContext, id: string): Promise<string> {
  const res = await engine.get(`/containers/${id}/logs`, { query: { stdout: '1' } });
  expect(res.status, 'GET /containers/{id}/logs?stdout=1 status').toBe(200);
  return decodeFrames(res.body).stdout.toString('utf8');
}
