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

/**
 * Filters that pick among the check's own pair of networks (and the predefined bridge): each listing
 * (`listings`, asked in this order) gives the names of those it lists, sorted.
 */
for (const { id, arrange, ...meta } of [
  { id: 'networks.list.filter-name', title: 'the name filter lists a network whose name it gives all or part of, and not another',
    quote: ['| GET /networks |', 'name=<network-name> (all or part)', '200 array of network'], since: '1.21', covers: ['2:GET /networks:query:filters.name'],
    arrange: async (context) => {
      const { wanted, other } = await ownPair(context);
      // The part after the run's prefix, which only this network's name holds.
      const part = wanted.slice(wanted.indexOf('-wanted-') + 1);
      return { among: [wanted, other], listings: { whole: { name: [wanted] }, part: { name: [part] } }, expected: { whole: [wanted], part: [wanted] }, what: 'own networks listed with the name filter, whole and in part' };
    } },
  { id: 'networks.list.filter-id', title: 'the id filter lists a network whose id it gives all or part of, and not another',
    quote: ['| GET /networks |', 'id=<network-id> (all or part)', '200 array of network'], since: '1.21', covers: ['2:GET /networks:query:filters.id'],
    arrange: async (context) => {
      const { wanted, other } = await ownPair(context);
      const { Id } = await inspectNetwork(context, wanted);
      return { among: [wanted, other], listings: { whole: { id: [Id] }, part: { id: [Id.slice(0, 12)] } }, expected: { whole: [wanted], part: [wanted] }, what: 'own networks listed with the id filter, whole and a 12-digit prefix' };
    } },
  { id: 'networks.list.filter-label', title: 'the label filter lists networks with the label key, or key=value, and not one without',
    quote: ['| GET /networks |', 'label=<key> or label=<key>=<value>', 'at 1.21 only name and id', '| POST /networks/create |', 'Options (map), Labels (map)}'], since: '1.22', covers: ['2:GET /networks:query:filters.label', '2:version-rule:1.22:networks-list-filters-driver-label-type'],
    arrange: async (context) => {
      const key = 'shipshape.case';
      const value = context.make.uniqueName('label');
      // the other network has a label, but not this key
      const { wanted, other } = await ownPair(context, [{ [key]: value }, { [`${key}-other`]: value }]);
      return { among: [wanted, other], listings: { key: { label: [key] }, keyValue: { label: [`${key}=${value}`] } }, expected: { key: [wanted], keyValue: [wanted] }, what: 'own networks listed by label key, and by key=value' };
    } },
  { id: 'networks.list.filter-type-predefined', title: 'the type filter lists the predefined bridge network with builtin and not with custom, and a user-defined one the other way round',
    // the spec names no predefined network: dockerd's bridge
    level: 'docker', seen: 'dockerd 20.10.24', since: '1.22',
    arrange: async (context) => {
      const { wanted } = await ownPair(context);
      return { among: [wanted, 'bridge'], listings: { custom: { type: ['custom'] }, builtin: { type: ['builtin'] } }, expected: { custom: [wanted], builtin: ['bridge'] }, what: 'own network and bridge listed by type' };
    } },
] satisfies (Omit<Parameters<typeof check>[1], 'spec' | 'tags'> & { id: string; arrange: (context: CheckContext) => Promise<{ among: string[]; listings: Record<string, Record<string, string[]>>; expected: Record<string, string[]>; what: string }> })[]) {
  check(id, { ...meta, spec: '2 §4.4', tags: ['state'] }, async (context) => {
    const { among, listings, expected, what } = await arrange(context);
    const seen: Record<string, string[]> = {};
    for (const [listing, filters] of Object.entries(listings)) seen[listing] = await listedAmong(context, among, filters);
    context.expect(seen, what).toEqual(expected);
  });
}
