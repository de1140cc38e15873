/**
 * The swarm's own endpoints as dockerd 20.10 answers them on a swarm manager (the spec leaves them
 * "not shown", so every check here is docker-level): a second init, a join and a leave without force
 * refused with 503; the spec updated at its version (Raft and the other settings taken as given), a
 * stale or missing version refused; the unlock key; unlock of a swarm that is not locked; a node's
 * labels updated and a role dockerd does not know refused. Each check leaves the swarm as it found
 * it: what it changes it changes back, and the run's daemon stays a manager of the same swarm. The
 * swarm is one per daemon while the version projects run side by side, so a check that changes the
 * swarm's or the node's spec runs at one version (1.25) only: two of them at once would each restore
 * what the other had changed.
 */
import { check, type CheckContext, type CheckMeta } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { ownNodeId } from './swarm-steps.ts';

const LIFECYCLE: Omit<CheckMeta, 'title'> = { spec: '2 §4.6', since: '1.24', tags: ['state'], requires: ['swarm'], level: 'docker', seen: 'dockerd 20.10.24' };

interface SwarmView {
  ID: string;
  Version: { Index: number };
  Spec: { Name: string; Labels?: Record<string, string>; Orchestration?: { TaskHistoryRetentionLimit?: number }; Raft?: Record<string, number>; EncryptionConfig?: { AutoLockManagers?: boolean } } & Record<string, unknown>;
  JoinTokens: { Worker: string; Manager: string };
}

interface NodeView {
  ID: string;
  Version: { Index: number };
  Spec: { Name?: string; Labels?: Record<string, string> | null; Role: string; Availability: string };
}

async function inspectSwarm({ engine, expect }: CheckContext): Promise<SwarmView> {
  const res = await engine.get('/swarm');
  expect(res.status, 'GET /swarm status').toBe(200);
  return res.json<SwarmView>();
}

function updateSwarm({ engine }: CheckContext, version: number | undefined, spec: unknown): Promise<ApiResponse> {
  return engine.post('/swarm/update', { query: version === undefined ? {} : { version }, json: spec });
}

async function inspectNode({ engine, expect }: CheckContext, id: string): Promise<NodeView> {
  const res = await engine.get(`/nodes/${id}`);
  expect(res.status, 'GET /nodes/{id} status').toBe(200);
  return res.json<NodeView>();
}

/** The only version a check that changes the swarm's or the node's spec runs at. */
const CHANGING: Pick<CheckMeta, 'since'> = { since: '1.25' };

/** Runs `change` with the swarm's spec, then puts the spec it found back (at the version the change left). */
async function withSwarmSpecRestored(context: CheckContext, change: (found: SwarmView) => Promise<void>): Promise<void> {
  const found = await inspectSwarm(context);
  context.make.track('the swarm spec as found', async () => {
    const now = await inspectSwarm(context);
    if (JSON.stringify(now.Spec) !== JSON.stringify(found.Spec)) await updateSwarm(context, now.Version.Index, found.Spec);
  });
  await change(found);
}

/** POST /swarm/init as `docker swarm init --advertise-addr 127.0.0.1` sends it, on a port nothing listens on. */
const INIT_REQUEST = { ListenAddr: '127.0.0.1:1', AdvertiseAddr: '127.0.0.1', ForceNewCluster: false, Spec: {} };

check('swarm.init.already-in-swarm', { ...LIFECYCLE, title: 'POST /swarm/init on a node already in a swarm answers 503 and the node stays in its swarm', tags: ['error'] }, async (context) => {
  const before = await inspectSwarm(context);
  const res = await context.engine.post('/swarm/init', { json: INIT_REQUEST });
  context.expect(res.status, `POST /swarm/init status on a swarm manager: ${res.describe()}`).toBe(503);
  expectErrorBodyOfVersion(context, res);
  context.expect((await inspectSwarm(context)).ID, 'the swarm\'s ID after the refused init').toBe(before.ID);
});

check('swarm.join.already-in-swarm', { ...LIFECYCLE, title: 'POST /swarm/join on a node already in a swarm answers 503', tags: ['error'] }, async (context) => {
  const { JoinTokens } = await inspectSwarm(context);
  const res = await context.engine.post('/swarm/join', { json: { ListenAddr: '127.0.0.1:1', AdvertiseAddr: '127.0.0.1', RemoteAddrs: ['127.0.0.1:1'], JoinToken: JoinTokens.Worker } });
  context.expect(res.status, `POST /swarm/join status on a swarm manager: ${res.describe()}`).toBe(503);
  expectErrorBodyOfVersion(context, res);
});

check('swarm.leave.manager-needs-force', { ...LIFECYCLE, title: 'POST /swarm/leave without force on the only manager answers 503 and the node stays a manager', tags: ['error'] }, async (context) => {
  for (const query of [{}, { force: 'false' }]) {
    const res = await context.engine.post('/swarm/leave', { query });
    context.expect(res.status, `POST /swarm/leave status with ${JSON.stringify(query)}: ${res.describe()}`).toBe(503);
    expectErrorBodyOfVersion(context, res);
  }
  context.expect(await ownNodeId(context), 'the node id /info gives after the refused leaves').not.toBe('');
});

check('swarm.update.spec-applied', { ...LIFECYCLE, ...CHANGING, title: 'POST /swarm/update at the swarm\'s version answers 200 and GET /swarm shows the Raft settings and Labels given, at a new version' }, async (context) => {
  await withSwarmSpecRestored(context, async (found) => {
    const spec = {
      ...found.Spec,
      Labels: { ...found.Spec.Labels, 'shipshape.check': context.make.uniqueName('l') },
      Raft: { ...found.Spec.Raft, SnapshotInterval: 5000, LogEntriesForSlowFollowers: 700 },
    };
    const res = await updateSwarm(context, found.Version.Index, spec);
    context.expect(res.status, `POST /swarm/update status: ${res.describe()}`).toBe(200);
    const updated = await inspectSwarm(context);
    context.expect(
      { labels: updated.Spec.Labels, snapshotInterval: updated.Spec.Raft?.SnapshotInterval, slowFollowers: updated.Spec.Raft?.LogEntriesForSlowFollowers },
      'the spec GET /swarm shows after the update',
    ).toEqual({ labels: spec.Labels, snapshotInterval: 5000, slowFollowers: 700 });
    context.expect(updated.Version.Index, 'Version.Index after the update').toBeGreaterThan(found.Version.Index);
  });
});

check('swarm.update.version-checked', { ...LIFECYCLE, title: 'POST /swarm/update without a version answers 400, at a version the swarm has left 500, and neither changes the spec', tags: ['error'] }, async (context) => {
  const found = await inspectSwarm(context);
  const label = context.make.uniqueName('refused');
  const changed = { ...found.Spec, Labels: { ...found.Spec.Labels, [label]: 'yes' } };
  const missing = await updateSwarm(context, undefined, changed);
  context.expect(missing.status, `POST /swarm/update status without a version: ${missing.describe()}`).toBe(400);
  expectErrorBodyOfVersion(context, missing);
  const stale = await updateSwarm(context, found.Version.Index - 1, changed);
  context.expect(stale.status, `POST /swarm/update status at a stale version: ${stale.describe()}`).toBe(500);
  expectErrorBodyOfVersion(context, stale);
  context.expect((await inspectSwarm(context)).Spec.Labels?.[label], 'the label the refused updates gave').toBeUndefined();
});

check('swarm.unlockkey.without-autolock', { ...LIFECYCLE, since: '1.25', title: 'GET /swarm/unlockkey answers 200 {UnlockKey}: empty while AutoLockManagers is off' }, async (context) => {
  const { Spec } = await inspectSwarm(context);
  const res = await context.engine.get('/swarm/unlockkey');
  context.expect(res.status, `GET /swarm/unlockkey status: ${res.describe()}`).toBe(200);
  const { UnlockKey } = res.json<{ UnlockKey: string }>();
  if (Spec.EncryptionConfig?.AutoLockManagers) context.expect(UnlockKey, 'the unlock key of an autolocked swarm').toMatch(/^SWMKEY-1-/);
  else context.expect(UnlockKey, 'the unlock key while AutoLockManagers is off').toBe('');
});

check('swarm.unlock.not-locked', { ...LIFECYCLE, since: '1.25', title: 'POST /swarm/unlock on a swarm that is not locked answers 409', tags: ['error'] }, async (context) => {
  const res = await context.engine.post('/swarm/unlock', { json: { UnlockKey: 'SWMKEY-1-notthekey' } });
  context.expect(res.status, `POST /swarm/unlock status: ${res.describe()}`).toBe(409);
  expectErrorBodyOfVersion(context, res);
});

check('swarm.nodes.update-labels', { ...LIFECYCLE, ...CHANGING, title: 'POST /nodes/{id}/update at the node\'s version answers 200 and the node shows the labels given; a stale version is refused' }, async (context) => {
  const id = await ownNodeId(context);
  const found = await inspectNode(context, id);
  context.make.track('the node spec as found', async () => {
    const now = await inspectNode(context, id);
    await context.engine.post(`/nodes/${id}/update`, { query: { version: now.Version.Index }, json: found.Spec });
  });
  const labels = { ...found.Spec.Labels, 'shipshape.check': context.make.uniqueName('l') };
  const res = await context.engine.post(`/nodes/${id}/update`, { query: { version: found.Version.Index }, json: { ...found.Spec, Labels: labels } });
  context.expect(res.status, `POST /nodes/{id}/update status: ${res.describe()}`).toBe(200);
  const updated = await inspectNode(context, id);
  context.expect({ labels: updated.Spec.Labels, role: updated.Spec.Role }, 'the node spec after the update').toEqual({ labels, role: found.Spec.Role });
  const stale = await context.engine.post(`/nodes/${id}/update`, { query: { version: found.Version.Index }, json: found.Spec });
  context.expect(stale.status, `POST /nodes/{id}/update status at a stale version: ${stale.describe()}`).toBe(500);
});

check('swarm.nodes.update-invalid-role', { ...LIFECYCLE, title: 'POST /nodes/{id}/update with a Role other than worker or manager answers 400 and changes nothing', tags: ['error'] }, async (context) => {
  const id = await ownNodeId(context);
  const found = await inspectNode(context, id);
  const res = await context.engine.post(`/nodes/${id}/update`, { query: { version: found.Version.Index }, json: { ...found.Spec, Role: 'boss' } });
  context.expect(res.status, `POST /nodes/{id}/update status for Role boss: ${res.describe()}`).toBe(400);
  expectErrorBodyOfVersion(context, res);
  context.expect((await inspectNode(context, id)).Version.Index, 'the node\'s version after the refusal').toBe(found.Version.Index);
});
