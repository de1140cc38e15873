/**
 * Steps the volume checks take: create volumes (labelled with the run, named by it), list them
 * narrowed to the check's own, run containers that mount them and read what they printed. Each step
 * asserts the answer it depends on, so a target that cannot take the step fails the check there and
 * says which request it was. Every volume goes with the check: it is tracked before any container
 * that uses it, so that the containers (and their anonymous volumes) go first.
 */
import type { CheckContext } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';
import { decodeFrames } from '../../harness/streams/frame-decoder.ts';
import { createdContainer, exitedState, mountsIn, startContainer, type ContainerMount, type InspectedMounts } from '../container-steps.ts';
import { streamText } from '../stream-reading.ts';

export interface VolumeView {
  Name: string;
  Driver: string;
  Mountpoint: string;
  Labels?: Record<string, string> | null;
  Scope?: string;
  /** dockerd's (and the reference's from 1.25): the DriverOpts the volume was created with */
  Options?: Record<string, string> | null;
}

/** A volume name of this run, which `shipshape cleanup` recognises. */
export function uniqueVolumeName({ make }: CheckContext, hint = 'v'): string {
  return make.uniqueName(hint);
}

/** POST /volumes/create with `body` plus the run's label; a volume the target created is removed after the check. */
export async function createVolume(context: CheckContext, body: Record<string, unknown> = {}): Promise<ApiResponse> {
  const { engine, make } = context;
  const labels = { ...(body.Labels as Record<string, string> | undefined), ...make.labels };
  const res = await engine.post('/volumes/create', { json: { ...body, Labels: labels } });
  if (res.status === 201) make.volume(res.json<VolumeView>().Name);
  return res;
}

/** A new volume named by the run (with `labels` besides the run's); returns its name. */
export async function ownVolume(context: CheckContext, labels: Record<string, string> = {}, name = uniqueVolumeName(context)): Promise<string> {
  const res = await createVolume(context, { Name: name, Labels: labels });
  context.expect(res.status, 'POST /volumes/create status').toBe(201);
  return name;
}

export async function inspectVolume({ engine, expect }: CheckContext, name: string): Promise<VolumeView> {
  const res = await engine.get(`/volumes/${encodeURIComponent(name)}`);
  expect(res.status, `GET /volumes/${name} status`).toBe(200);
  return res.json<VolumeView>();
}

export async function volumeStatus({ engine }: CheckContext, name: string): Promise<number> {
  return (await engine.get(`/volumes/${encodeURIComponent(name)}`)).status;
}

/**
 * The names GET /volumes lists with `filters`, narrowed to `own`: other checks create volumes at the
 * same time, and a live daemon has its own. Sorted, for comparing sets.
 */
export async function listedAmong({ engine, expect }: CheckContext, own: string[], filters: Record<string, string[]> = {}): Promise<string[]> {
  const res = await engine.get('/volumes', { query: Object.keys(filters).length > 0 ? { filters: JSON.stringify(filters) } : {} });
  expect(res.status, 'GET /volumes status').toBe(200);
  const names = (res.json<{ Volumes: VolumeView[] | null }>().Volumes ?? []).map((volume) => volume.Name);
  return names.filter((name) => own.includes(name)).sort();
}

/**
 * A container of the fixture image that mounts `binds` (entries `name:/path[:mode]`), created but
 * not started. A volume the binds are to create is the check's to track (`make.volume`) before.
 */
export function containerWithBinds(context: CheckContext, binds: string[], config: Record<string, unknown> = {}): Promise<string> {
  return createdContainer(context, { ...config, HostConfig: { Binds: binds } });
}

/** Starts a created container and waits for its end; returns its exit code and what it printed. */
export async function runToEnd(context: CheckContext, id: string): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  await startContainer(context, id);
  const { ExitCode } = await exitedState(context, id);
  const res = await context.engine.get(`/containers/${id}/logs`, { query: { stdout: 1, stderr: 1 } });
  context.expect(res.status, 'GET /containers/{id}/logs status').toBe(200);
  const { frames } = decodeFrames(res.body);
  return { exitCode: ExitCode, stdout: streamText(frames, 'stdout'), stderr: streamText(frames, 'stderr') };
}

/**
 * The name of the volume a container mounts at `destination`, found by where its files are (Mounts
 * Source against each volume's Mountpoint): Mounts shows the name only from 1.23.
 */
export async function volumeMountedAt(context: CheckContext, id: string, destination: string): Promise<string> {
  const mount = (await mountsOf(context, id)).find((item) => item.Destination === destination);
  context.expect(mount, `the Mounts item of ${destination}`).toBeDefined();
  const res = await context.engine.get('/volumes');
  context.expect(res.status, 'GET /volumes status').toBe(200);
  const volume = (res.json<{ Volumes: VolumeView[] | null }>().Volumes ?? []).find((item) => item.Mountpoint === mount?.Source);
  context.expect(volume, `a volume whose Mountpoint is the Source ${JSON.stringify(mount?.Source)} of the mount`).toBeDefined();
  return volume?.Name ?? '';
}

/** The mounts of a container's inspect: its Mounts, or the 1.18 Volumes maps where it has none (mountsIn). */
export async function mountsOf({ engine, expect }: CheckContext, id: string): Promise<ContainerMount[]> {
  const res = await engine.get(`/containers/${id}/json`);
  expect(res.status, 'GET /containers/{id}/json status').toBe(200);
  return mountsIn(res.json<InspectedMounts>());
}
