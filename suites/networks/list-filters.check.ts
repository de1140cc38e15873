/**
 * The filters of GET /networks (spec/2 §4.4), each with a network it must list and one it must not:
 * name and id (all or part) from 1.21, driver, label and type (custom or builtin) from 1.22 — the
 * spec has only name and id at 1.21. Other checks and the daemon have networks too, so each check
 * judges its own networks (and, as dockerd 20.10 has it, the predefined bridge) only.
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
  quote: ['| GET /networks |', 'name=<network-name> (all or part)', '200 array of network'],
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
  quote: ['| GET /networks |', 'id=<network-id> (all or part)', '200 array of network'],
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
  spec: '2 §2.4, §4.4',
  quote: ['| GET /networks |', 'filters: driver=<driver-name>', 'at 1.21 only name and id', '200 array of network', 'Driver (default bridge)', 'Fields: Name, Id, Scope, Driver'],
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
  quote: ['| GET /networks |', 'label=<key> or label=<key>=<value>', 'at 1.21 only name and id', 'Labels (map)'],
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
  title: 'the type filter lists a user-defined network with custom and not with builtin, and no network with both',
  spec: '2 §4.4',
  quote: ['| GET /networks |', 'type=custom or builtin (custom = user-defined); at 1.21 only name and id'],
  since: '1.22',
  tags: ['state'],
  covers: ['2:GET /networks:query:filters.type', '2:version-rule:1.22:networks-list-filters-driver-label-type'],
}, async (context) => {
  const { wanted } = await ownPair(context);
  // which networks are builtin the spec does not say (it names no predefined network): only that a
  // user-defined one is custom, and that no network is of both kinds
  const byType = async (type: string) => {
    const res = await readNetworks(context, '/networks', { type: [type] });
    context.expect(res.status, `GET /networks?filters={"type":["${type}"]} status`).toBe(200);
    return res.json<NetworkView[]>().map((network) => network.Id);
  };
  const { Id } = await inspectNetwork(context, wanted);
  const custom = await byType('custom');
  const builtin = await byType('builtin');
  context.expect({ custom: custom.includes(Id), builtin: builtin.includes(Id), both: custom.filter((id) => builtin.includes(id)) }, 'own network listed by type, and the networks listed by both').toEqual({
    custom: true,
    builtin: false,
    both: [],
  });
});

check('networks.list.filter-type-predefined', {
  title: 'the type filter lists the predefined bridge network with builtin and not with custom, and a user-defined one the other way round',
  // the spec names no predefined network: dockerd's bridge
  level: 'docker',
  seen: 'dockerd 20.10.24',
  spec: '2 §4.4',
  since: '1.22',
  tags: ['state'],
}, async (context) => {
  const { wanted } = await ownPair(context);
  const among = [wanted, 'bridge'];
  const seen = { custom: await listedAmong(context, among, { type: ['custom'] }), builtin: await listedAmong(context, among, { type: ['builtin'] }) };
  context.expect(seen, 'own network and bridge listed by type').toEqual({ custom: [wanted], builtin: ['bridge'] });
});
