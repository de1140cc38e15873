/**
 * vitest's global setup for the version projects. Under `shipshape run` the CLI has prepared the
 * target already and passes the session in the environment; under a bare `npx vitest` this starts
 * the reference (or reaches SHIPSHAPE_TARGET / DOCKER_HOST) itself; under `shipshape list` nothing.
 */
import type { TestProject } from 'vitest/node';
import { SESSION_ENV, type RunSession } from '../session.ts';
import { parseTarget } from '../target.ts';
import { prepareTarget } from './prepare-target.ts';

/** Set by `shipshape list`: collecting the checks' metadata runs none of them, so no target is prepared. */
export const COLLECT_ONLY_ENV = 'SHIPSHAPE_COLLECT_ONLY';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env[COLLECT_ONLY_ENV]) return undefined;
  const given = process.env[SESSION_ENV];
  if (given) {
    project.provide('session', JSON.parse(given) as RunSession);
    return undefined;
  }
  const prepared = await prepareTarget({
    target: parseTarget(process.env.SHIPSHAPE_TARGET),
    dialect: process.env.SHIPSHAPE_DIALECT === 'docker' ? 'docker' : 'engine',
    busyboxPath: process.env.SHIPSHAPE_BUSYBOX ?? '/bin/busybox',
    seed: Number(process.env.SHIPSHAPE_SEED ?? Date.now() % 2 ** 31),
  });
  project.provide('session', prepared.session);
  return async () => {
    const leftovers = await prepared.close();
    if (leftovers.length > 0) throw new Error(`the run left objects on the target: ${leftovers.join('; ')}`);
  };
}
