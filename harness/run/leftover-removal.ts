/**
 * Removes what Shipshape created on a live daemon and did not remove: containers labelled
 * `shipshape.run` (one run's, or every run's), and fixture images nothing uses any more.
 * Shared by `shipshape cleanup`, Ctrl-C during a run, and the end of every live run.
 */
import type { EngineClient } from '../client/engine-client.ts';
import { RUN_LABEL } from '../resources.ts';
import { FIXTURE_REPOSITORY } from '../../fixtures/busybox-rootfs.ts';

export interface Removal {
  removed: string[];
  failed: string[];
}

export async function removeLeftovers(engine: EngineClient, runId?: string, options: { images?: boolean } = {}): Promise<Removal> {
  const removal: Removal = { removed: [], failed: [] };
  const label = runId ? `${RUN_LABEL}=${runId}` : RUN_LABEL;
  const listed = await engine.get('/containers/json', { query: { all: 1, filters: JSON.stringify({ label: [label] }) } });
  if (listed.status !== 200) throw new Error(`listing containers failed: ${listed.describe()}`);
  for (const { Id } of listed.json<{ Id: string }[]>()) {
    const res = await engine.delete(`/containers/${Id}`, { query: { force: 1, v: 1 } });
    if (res.status === 204 || res.status === 404) removal.removed.push(`container ${Id.slice(0, 12)}`);
    else removal.failed.push(`container ${Id.slice(0, 12)}: ${res.describe()}`);
  }
  if (options.images) {
    const images = await engine.get('/images/json', { query: { filter: FIXTURE_REPOSITORY } });
    for (const image of images.status === 200 ? images.json<{ Id: string }[]>() : []) {
      // Without force: an image a container still uses is someone's, not a leftover.
      const res = await engine.delete(`/images/${image.Id}`);
      if (res.status === 200) removal.removed.push(`image ${image.Id.replace(/^sha256:/, '').slice(0, 12)}`);
    }
  }
  return removal;
}
