/** Checks of a made-up area for the suite files here: the run of them loses some results on purpose. */
import type { CheckDescriptor } from '../../../harness/check.ts';

export function descriptor(id: string): CheckDescriptor {
  return { id, area: 'lost', title: `the rule of ${id}`, spec: '1 §3', since: '1.18', tags: ['state'], level: 'spec' };
}

export const WORKER_LOST = ['lost.worker.kills', 'lost.worker.after'].map(descriptor);
export const DOES_NOT_LOAD = ['lost.load.first', 'lost.load.second'].map(descriptor);
