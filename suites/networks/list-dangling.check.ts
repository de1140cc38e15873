/**
 * The network list's `dangling` filter, which dockerd 20.10 takes at every version though spec/2 §4.4
 * does not name it: true lists a network no container is on, never a predefined one; false the
 * predefined ones. (Whether a network a container is on dangles is left alone: dockerd 20.10 filters
 * before it counts the containers, so it lists every user-defined network as dangling.) Each check
 * judges its own network and bridge only.
 */
import { check } from '../../harness/check.ts';
import { listedAmong, ownNetwork } from './network-steps.ts';

check('networks.list.filter-dangling', {
  title: 'dangling=true lists an own network no container is on and not bridge; dangling=false lists bridge and not that network',
  spec: '2 §4.4',
  // §4.4 names the name, id, driver, label and type filters; dangling is dockerd's.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.21',
  tags: ['state'],
}, async (context) => {
  const unused = context.make.uniqueName('unused');
  await ownNetwork(context, { Name: unused });
  const among = [unused, 'bridge'];
  const seen = { true: await listedAmong(context, among, { dangling: ['true'] }), false: await listedAmong(context, among, { dangling: ['false'] }) };
  context.expect(seen, 'own network and bridge listed by dangling').toEqual({ true: [unused], false: ['bridge'] });
});
