/**
 * POST /networks/prune (Docker's, API 1.25; the spec does not describe it): every user-defined
 * network no container is on, among those the filters select, is removed; the answer names them.
 * Each check prunes only networks with its own label.
 */
import { check } from '../../harness/check.ts';
import { pruned, pruneMark } from '../prune-steps.ts';
import { networkStatus, networkWithContainer, ownNetwork } from './network-steps.ts';

interface NetworksPruned {
  NetworksDeleted: string[] | null;
}

const DOCKER = { spec: '2 §4.4', level: 'docker', seen: 'dockerd 20.10.24', since: '1.25' } as const;

check('networks.prune.unused', {
  ...DOCKER,
  title: 'POST /networks/prune removes the networks its label filter selects that no container is on, naming them in NetworksDeleted, and keeps one a running container is on',
  tags: ['state'],
}, async (context) => {
  const { labels, mark } = pruneMark(context);
  const name = context.make.uniqueName('n');
  const unused = await ownNetwork(context, { Name: name, Labels: labels });
  const { id: used } = await networkWithContainer(context, { Labels: labels });
  const answer = await pruned<NetworksPruned>(context, 'networks', mark);
  context.expect(answer.NetworksDeleted, `NetworksDeleted: ${JSON.stringify(answer)}`).toEqual([name]);
  context.expect(await networkStatus(context, unused), 'GET /networks/{unused} status after the prune').toBe(404);
  context.expect(await networkStatus(context, used), 'GET /networks/{used} status after the prune').toBe(200);
});

check('networks.prune.until', {
  ...DOCKER,
  title: 'POST /networks/prune with until before a network was created keeps it',
  tags: ['state'],
}, async (context) => {
  const { labels, mark } = pruneMark(context);
  const kept = await ownNetwork(context, { Labels: labels });
  const answer = await pruned<NetworksPruned>(context, 'networks', mark, { until: ['1000000000'] });
  context.expect(answer.NetworksDeleted ?? [], 'NetworksDeleted of a prune until 2001').toEqual([]);
  context.expect(await networkStatus(context, kept), 'GET /networks/{kept} status after the prune').toBe(200);
});
