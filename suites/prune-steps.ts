/**
 * Prune (POST /{containers,images,volumes,networks}/prune): Docker's endpoints of 1.25, which the spec
 * does not describe. A check prunes only what it created: every prune carries a label of the check's
 * own (`label` filter), so a shared daemon loses nothing else.
 */
import type { ApiResponse } from '../harness/client/api-response.ts';
import type { CheckContext } from '../harness/check.ts';
import { until } from '../harness/wait-until.ts';

/**
 * `send` again while it answers 500, for up to 5 s: Podman 4.3 answers prune and system df with 500
 * "no such container" when a container another client removes goes while it looks at them. Only for
 * requests that change nothing of others' (prunes of the check's own label, df).
 */
export function outlastingContainerRaces(send: () => Promise<ApiResponse>): Promise<ApiResponse> {
  return until(send, (res) => res.status !== 500, { timeoutMs: 5_000, intervalMs: 500, what: 'an answer other than 500' }).catch(send);
}

export type PrunedKind = 'containers' | 'images' | 'volumes' | 'networks';

/** A label of the check's own: the labels to give what it creates, and the filter entry that selects them. */
export function pruneMark(context: CheckContext): { labels: Record<string, string>; mark: string } {
  const value = context.make.uniqueName('prune');
  return { labels: { 'shipshape.prune': value }, mark: `shipshape.prune=${value}` };
}

/** POST /{kind}/prune with the check's mark and `filters` besides, which must answer 200; returns the answer's object. */
export async function pruned<T = Record<string, unknown>>({ engine, expect }: CheckContext, kind: PrunedKind, mark: string, filters: Record<string, string[]> = {}): Promise<T> {
  const all = { ...filters, label: [mark, ...(filters.label ?? [])] };
  const res = await outlastingContainerRaces(() => engine.post(`/${kind}/prune`, { query: { filters: JSON.stringify(all) } }));
  expect(res.status, `POST /${kind}/prune status: ${res.describe()}`).toBe(200);
  return res.json<T>();
}
