/**
 * Prune (POST /{containers,images,volumes,networks}/prune): Docker's endpoints of 1.25, which the spec
 * does not describe. A check prunes only what it created: every prune carries a label of the check's
 * own (`label` filter), so a shared daemon loses nothing else.
 */
import type { ApiResponse } from '../harness/client/api-response.ts';
import type { CheckContext } from '../harness/check.ts';
import { until } from '../harness/wait-until.ts';

/**
 * `send` again, for up to 10 s, while it answers 409 or 500: dockerd runs one prune of a kind at a
 * time (another check's prune answers 409 "a prune operation is already running"), and Podman 4.3
 * answers prune and system df with 500 "no such container" when a container another client removes
 * goes while it looks at them. Only for requests that change nothing of others' (prunes of the
 * check's own label, df).
 */
export function outlastingRaces(send: () => Promise<ApiResponse>): Promise<ApiResponse> {
  return until(send, (res) => res.status !== 409 && res.status !== 500, { timeoutMs: 10_000, intervalMs: 250, what: 'an answer other than 409 or 500' }).catch(send);
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
  const res = await outlastingRaces(() => engine.post(`/${kind}/prune`, { query: { filters: JSON.stringify(all) } }));
  expect(res.status, `POST /${kind}/prune status: ${res.describe()}`).toBe(200);
  return res.json<T>();
}
