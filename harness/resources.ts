/**
 * Everything a check creates on a target is labelled with the run id (or named with its prefix where
 * labels don't exist) and removed when the check ends, whatever the outcome: a run leaves a live
 * daemon exactly as it found it. `shipshape cleanup` removes what a crashed run left.
 */
import { randomBytes } from 'node:crypto';
import type { EngineClient } from './client/engine-client.ts';

export const RUN_LABEL = 'shipshape.run';
export const NAME_PREFIX = 'shipshape-';

type Remover = () => Promise<void>;

export class ResourceTracker {
  private readonly removers: { what: string; remove: Remover }[] = [];

  constructor(
    private readonly engine: EngineClient,
    readonly runId: string,
  ) {}

  /** A name unique to this run and check, recognisable by `shipshape cleanup`. */
  uniqueName(hint = 'x'): string {
    return `${NAME_PREFIX}${this.runId}-${hint}-${randomBytes(3).toString('hex')}`;
  }

  get labels(): Record<string, string> {
    return { [RUN_LABEL]: this.runId };
  }

  track(what: string, remove: Remover): void {
    this.removers.push({ what, remove });
  }

  /** Creates a container (labelled, uniquely named) and schedules its forced removal. Returns its id. */
  async container(config: Record<string, unknown>, name = this.uniqueName('c')): Promise<string> {
    const labels = { ...(config.Labels as Record<string, string> | undefined), ...this.labels };
    const res = await this.engine.post('/containers/create', { query: { name }, json: { ...config, Labels: labels } });
    if (res.status !== 201) throw new Error(`setup: could not create a container: ${res.describe()}`);
    const { Id } = res.json<{ Id: string }>();
    this.track(`container ${name}`, async () => {
      await this.engine.delete(`/containers/${Id}`, { query: { force: 1, v: 1 } });
    });
    return Id;
  }

  /** Removes in reverse order of creation; reports what could not be removed instead of hiding it. */
  async cleanup(): Promise<string[]> {
    const leftovers: string[] = [];
    for (const { what, remove } of this.removers.splice(0).reverse()) {
      try {
        await remove();
      } catch (error) {
        leftovers.push(`${what}: ${(error as Error).message}`);
      }
    }
    return leftovers;
  }
}
