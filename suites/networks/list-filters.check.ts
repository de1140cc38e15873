/**
 * The filters of GET /networks (spec/2 §4.4), each with a network it must list and one it must not:
 * name and id (all or part) from 1.21, driver, label and type (custom or builtin) from 1.22 — the
 * spec has only name and id at 1.21. Other checks and the daemon have networks too, so each check
 * judges its own networks and the predefined ones only.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { inspectNetwork, listedAmong, ownNetwork, readNetworks, type NetworkView } from './network-steps.ts';

/** Two networks of the check's own, with `labels` each besides the run's; their names. */
async function ownPair(context: CheckContext, labels: [Record<string, string>, Record<string, string>] = [{}, {}]): Promise<{ wanted: string; other: string }> {
  const wanted = context.make.uniqueName('wanted');
  const other = context.make.uniqueName('other');
  await ownNetwork(context, { Name: wanted, Labels: labels[0] });
  await ownNetwork(context, { Name: other, Labels: labels[1] });
  return { wanted, other };
}

check('networks.list.filter-name', {
  title: 'the name filter lists a network whose name it gives all or part of, and not another',
  spec: '2 §4.4',
  since: '1.21',
  tags: ['state'],
  covers: ['2:GET /networks:query:filters.name'],
}, async (context) => {
  const { wanted, other } = await ownPair(context);
  // The part after the run's prefix, which only this network's name holds.
  const part = wanted.slice(wanted.indexOf('-wanted-') + 1);
  const seen = { whole: await listedAmong(context, [wanted, other], { name: [wanted] }), part: await listedAmong(context, [wanted, other], { name: [part] }) };
  context.expect(seen, 'own networks listed with the name filter, whole and in part').toEqual({ whole: [wanted], part: [wanted] });
});

check('networks.list.filter-id', {
  title: 'the id filter lists a network whose id it gives all or part of, and not another',
  spec: '2 §4.4',
  since: '1.21',
  tags: ['state'],
  covers: ['2:GET /networks:query:filters.id'],
}, async (context) => {
  const { wanted, other } = await ownPair(context);
  const { Id } = await inspectNetwork(context, wanted);
  const seen = { whole: await listedAmong(context, [wanted, other], { id: [Id] }), part: await listedAmong(context, [wanted, other], { id: [Id.slice(0, 12)] }) };
  context.expect(seen, 'own networks listed with the id filter, whole and a 12-digit prefix').toEqual({ whole: [wanted], part: [wanted] });
});

check('networks.list.filter-driver', {
  title: 'the driver filter lists networks of that driver only: bridge lists a bridge network, another driver does not',
  spec: '2 §4.4',
  since: '1.22',
  tags: ['state'],
  covers: ['2:GET /networks:query:filters.driver', '2:version-rule:1.22:networks-list-filters-driver-label-type'],
}, async (context) => {
  const { wanted } = await ownPair(context);
  // what each driver filter lists: of the check's own network, and the drivers of all it lists
  const byDriver = async (driver: string) => {
    const res = await readNetworks(context, '/networks', { driver: [driver] });
    context.expect(res.status, `GET /networks?filters={"driver":["${driver}"]} status`).toBe(200);
    const listed = res.json<NetworkView[]>();
    return { own: listed.filter((network) => network.Name === wanted).length, others: [...new Set(listed.map((network) => network.Driver))].filter((other) => other !== driver) };
  };
  context.expect({ bridge: await byDriver('bridge'), host: await byDriver('host') }, 'own network listed, and the other drivers listed, by driver').toEqual({
    bridge: { own: 1, others: [] },
    host: { own: 0, others: [] },
  });
});

check('networks.list.filter-label', {
  title: 'the label filter lists networks with the label key, or key=value, and not one without',
  spec: '2 §4.4',
  since: '1.22',
  tags: ['state'],
  covers: ['2:GET /networks:query:filters.label', '2:version-rule:1.22:networks-list-filters-driver-label-type'],
}, async (context) => {
  const key = 'shipshape.case';
  const value = context.make.uniqueName('label');
  const { wanted, other } = await ownPair(context, [{ [key]: value }, { [key]: `${value}-other` }]);
  const seen = { key: await listedAmong(context, [wanted, other], { label: [key] }), keyValue: await listedAmong(context, [wanted, other], { label: [`${key}=${value}`] }) };
  context.expect(seen, 'own networks listed by label key, and by key=value').toEqual({ key: [other, wanted].sort(), keyValue: [wanted] });
});

check('networks.list.filter-type', {
  title: 'the type filter lists user-defined networks with custom and the predefined ones with builtin, not the other kind',
  spec: '2 §4.4',
  since: '1.22',
  tags: ['state'],
  covers: ['2:GET /networks:query:filters.type', '2:version-rule:1.22:networks-list-filters-driver-label-type'],
}, async (context) => {
  const { wanted } = await ownPair(context);
  const among = [wanted, 'bridge'];
  const seen = { custom: await listedAmong(context, among, { type: ['custom'] }), builtin: await listedAmong(context, among, { type: ['builtin'] }) };
  context.expect(seen, 'own network and bridge listed by type').toEqual({ custom: [wanted], builtin: ['bridge'] });
});
