/**
 * The two targets a comparative bench measures, one after the other: the reference, started in this
 * process on a Unix socket in a temporary directory (docker dialect) and closed afterwards, then a
 * real dockerd at `dockerdUrl`.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startReference } from '../reference/serve.ts';

/** `measure` against each target; the figures labelled by target. */
export async function measureReferenceThenDockerd<T>(dockerdUrl: string, measure: (url: string, target: 'reference' | 'dockerd') => Promise<T>): Promise<Array<[string, T]>> {
  const results: Array<[string, T]> = [];
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-bench-'));
  const reference = await startReference({ engine: `unix://${path.join(dir, 'engine.sock')}`, dialect: 'docker' });
  try {
    results.push(['reference', await measure(reference.engineUrl, 'reference')]);
  } finally {
    await reference.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
  results.push([`dockerd (${dockerdUrl})`, await measure(dockerdUrl, 'dockerd')]);
  return results;
}
