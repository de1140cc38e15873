/**
 * Steps over the swarm's secrets and configs, which dockerd serves alike under `/secrets` and
 * `/configs`: create one labelled with the run (removed after the check), inspect it, list it.
 */
import type { CheckContext } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';

/** The path of the kind: secrets or configs. */
export type SwarmDataKind = 'secrets' | 'configs';

export interface SwarmDataView {
  ID: string;
  Version: { Index: number };
  CreatedAt: string;
  UpdatedAt: string;
  Spec: { Name: string; Labels?: Record<string, string> | null; Data?: string };
}

export const base64 = (text: string) => Buffer.from(text).toString('base64');

/** POST /{kind}/create with `spec`, labelled with the run; what the target creates is removed after the check. */
export async function createSwarmData({ engine, make }: CheckContext, kind: SwarmDataKind, spec: Record<string, unknown>): Promise<ApiResponse> {
  const labels = { ...(spec.Labels as Record<string, string> | undefined), ...make.labels };
  const res = await engine.post(`/${kind}/create`, { json: { ...spec, Labels: labels } });
  if (res.status === 201) {
    const { ID } = res.json<{ ID: string }>();
    make.track(`${kind.slice(0, -1)} ${ID}`, async () => {
      await engine.delete(`/${kind}/${ID}`);
    });
  }
  return res;
}

/** One of the check's own, with `data`, named by the run unless `spec` names it; returns its id and name. */
export async function ownSwarmData(context: CheckContext, kind: SwarmDataKind, spec: Record<string, unknown> = {}, data = 'top secret'): Promise<{ id: string; name: string }> {
  const name = context.make.uniqueName(kind.slice(0, -1));
  const res = await createSwarmData(context, kind, { Name: name, Data: base64(data), ...spec });
  context.expect(res.status, `POST /${kind}/create status: ${res.describe()}`).toBe(201);
  return { id: res.json<{ ID: string }>().ID, name: (spec.Name as string | undefined) ?? name };
}

/** GET /{kind}/{reference}, which must answer 200. */
export async function inspectSwarmData({ engine, expect }: CheckContext, kind: SwarmDataKind, reference: string): Promise<SwarmDataView> {
  const res = await engine.get(`/${kind}/${reference}`);
  expect(res.status, `GET /${kind}/{id} status: ${res.describe()}`).toBe(200);
  return res.json<SwarmDataView>();
}

/** The ids GET /{kind} lists with `filters`, narrowed to `own` (the daemon may hold others). */
export async function listedAmong({ engine, expect }: CheckContext, kind: SwarmDataKind, own: string[], filters: Record<string, string[]>): Promise<string[]> {
  const res = await engine.get(`/${kind}`, { query: { filters: JSON.stringify(filters) } });
  expect(res.status, `GET /${kind}?filters=${JSON.stringify(filters)} status: ${res.describe()}`).toBe(200);
  return res.json<SwarmDataView[]>().map((object) => object.ID).filter((id) => own.includes(id)).sort();
}
