/**
 * Capabilities of the target's host rather than of its API, found by a create the run makes before any
 * check: what the host's kernel and storage give is no conformance matter, so a check needing one is
 * skipped with the reason where it is missing, never listed as an expected failure of one host.
 * - `blkio-weight`: a create's HostConfig.BlkioWeight is kept (inspect shows it back). Without a block
 *   I/O weight in the kernel (or its cgroup), dockerd takes the create but drops the field with a
 *   warning, and its range is not checked either.
 * - `storage-opt`: a create with HostConfig.StorageOpt `size` is taken. Which options a storage driver
 *   takes is the driver's: dockerd's overlay2 needs xfs mounted with pquota for it.
 * Each probe's container carries the run label and is removed at once.
 */
import type { EngineClient } from '../client/engine-client.ts';
import { RUN_LABEL } from '../resources.ts';

const PROBE_WEIGHT = 500;

export async function detectHostCapabilities(engine: EngineClient, fixtureImage: string, runId: string): Promise<string[]> {
  const capabilities: string[] = [];
  const weight = await probeCreate(engine, fixtureImage, runId, { BlkioWeight: PROBE_WEIGHT });
  if (weight?.HostConfig?.BlkioWeight === PROBE_WEIGHT) capabilities.push('blkio-weight');
  if (await probeCreate(engine, fixtureImage, runId, { StorageOpt: { size: '1G' } })) capabilities.push('storage-opt');
  return capabilities;
}

/** Creates a never-started container with `hostConfig`; its inspect object when the create was taken, else undefined. */
async function probeCreate(engine: EngineClient, image: string, runId: string, hostConfig: Record<string, unknown>): Promise<{ HostConfig?: Record<string, unknown> } | undefined> {
  const created = await engine.post('/containers/create', { json: { Image: image, Cmd: ['true'], Labels: { [RUN_LABEL]: runId }, HostConfig: hostConfig } });
  if (created.status !== 201) return undefined;
  const { Id } = created.json<{ Id: string }>();
  try {
    const inspected = await engine.get(`/containers/${Id}/json`);
    return inspected.status === 200 ? inspected.json<{ HostConfig?: Record<string, unknown> }>() : undefined;
  } finally {
    await engine.delete(`/containers/${Id}`, { query: { force: 1, v: 1 } });
  }
}
