/**
 * GET /networks's filters as a property (spec/2 §4.4): a small random world of user-defined networks
 * (names sharing parts, random labels, the bridge driver given or left to its default), then random
 * queries of name and id (all or part), and from 1.22 driver, label (key or key=value) and type, alone
 * and together, each answer compared with what the spec's words give over that world. The world comes
 * from the run's seed as the queries do (`--seed` replays both). Other checks and the daemon have
 * networks too: only the world's networks in an answer are judged.
 *
 * Left out, as the spec leaves them open: whether part of an id is a prefix or any part (a prefix must
 * match; an id holding the value elsewhere may be listed or not), which networks are builtin (the world
 * has user-defined ones only), part of a driver name (the spec gives driver without "all or part": the
 * queries name whole drivers, none part of another), and how several values of one key combine (one
 * value per key; different keys must all hold, as each filter narrows the list).
 */
import fc from 'fast-check';
import { check, type CheckContext } from '../../harness/check.ts';
import { assertProperty } from '../../harness/property-check.ts';
import { atLeast, type ApiVersion } from '../../protocol/versions.ts';
import { ownNetwork, readNetworks, type NetworkView } from './network-steps.ts';

/** Queries per run: each is one GET /networks. */
const RUNS = 30;

const KEYS = ['shipshape.colour', 'shipshape.size'];
const VALUES = ['red', 'blue'];

interface NetworkPlan {
  suffix: string;
  labels: Record<string, string>;
  /** whether the create body names the driver (bridge), or leaves it to its default */
  namedDriver: boolean;
}

/** Suffixes from a few letters, so that one network's name part is often another's too. */
const suffix = fc.stringMatching(/^[ab]{1,3}$/);
const labels = fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES), { maxKeys: 2 });
const world = fc.uniqueArray(fc.record({ suffix, labels, namedDriver: fc.boolean() }), { minLength: 2, maxLength: 4, selector: (plan) => plan.suffix });

/** Part of a world network's name or id (by index, start and length, cut to it), the shared base, or a value none has. */
type PartPlan = { of: number; start: number; length: number } | { base: true } | { absent: true };
const partPlan: fc.Arbitrary<PartPlan> = fc.oneof(
  fc.record({ of: fc.nat(3), start: fc.nat(70), length: fc.integer({ min: 1, max: 70 }) }),
  fc.constant({ base: true as const }),
  fc.constant({ absent: true as const }),
);
/** A prefix of a world network's id (by index and length), or an id none has. */
type IdPlan = { of: number; length: number } | { absent: true };
const idPlan: fc.Arbitrary<IdPlan> = fc.oneof(
  fc.record({ of: fc.nat(3), length: fc.integer({ min: 1, max: 64 }) }),
  fc.constant({ absent: true as const }),
);

function query(version: ApiVersion) {
  return fc.record({
    name: partPlan,
    id: idPlan,
    // the later filters exist from 1.22 ("at 1.21 only name and id")
    ...(atLeast(version, '1.22') ? {
      driver: fc.constantFrom('bridge', 'host', 'null', 'overlay', 'shipshape-nosuch'),
      label: fc.oneof(fc.constantFrom(...KEYS, 'shipshape.absent'), fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES)).map(([key, value]) => `${key}=${value}`)),
      type: fc.constantFrom('custom', 'builtin'),
    } : {}),
  }, { requiredKeys: [] });
}

interface Network {
  name: string;
  id: string;
  labels: Record<string, string>;
}

/** Whether a network must be listed, must not be, or either may hold (what the spec leaves open). */
type Verdict = 'listed' | 'not listed' | 'either';

/** Every filter must hold: one that does not rules the network out, one left open leaves it open. */
function all(verdicts: Verdict[]): Verdict {
  if (verdicts.includes('not listed')) return 'not listed';
  return verdicts.includes('either') ? 'either' : 'listed';
}

const when = (holds: boolean): Verdict => (holds ? 'listed' : 'not listed');

/** What the spec's words give for one filter value and one network of the world. */
function verdict(key: string, value: string, network: Network): Verdict {
  switch (key) {
    case 'name':
      return when(network.name.includes(value));
    case 'id':
      // all or part: a prefix is a part by any reading; a value the id does not hold is none
      if (network.id.startsWith(value)) return 'listed';
      return network.id.includes(value) ? 'either' : 'not listed';
    case 'driver':
      return when(value === 'bridge');
    case 'label': {
      const [label = '', ...rest] = value.split('=');
      return when(rest.length === 0 ? label in network.labels : network.labels[label] === rest.join('='));
    }
    case 'type':
      return when(value === 'custom');
    default:
      throw new Error(`no oracle for the filter ${key}`);
  }
}

function valueOfPart(plan: PartPlan, base: string, of: (index: number) => string): string {
  if ('base' in plan) return base;
  if ('absent' in plan) return `${base}-zz`;
  const whole = of(plan.of);
  const start = plan.start % whole.length;
  return whole.slice(start, start + plan.length);
}

/** The world's network at `index`, counted round. */
function pick(networks: Network[], index: number): Network {
  const network = networks[index % networks.length];
  if (!network) throw new Error('the world has no networks');
  return network;
}

/** Makes the world's networks; returns them with their names and ids. */
async function buildWorld(context: CheckContext, plans: NetworkPlan[], base: string): Promise<Network[]> {
  const networks: Network[] = [];
  for (const plan of plans) {
    const name = `${base}-${plan.suffix}`;
    const id = await ownNetwork(context, { Name: name, Labels: plan.labels, ...(plan.namedDriver ? { Driver: 'bridge' } : {}) });
    networks.push({ name, id, labels: plan.labels });
  }
  return networks;
}

check('networks.list.property-filters', {
  title: 'over a random world of user-defined networks, GET /networks with random name, id, driver, label and type filters, alone and together, lists the networks every filter given matches and no other',
  spec: '2 §4',
  quote: [
    '| GET /networks | filters: driver=<driver-name>, id=<network-id> (all or part), label=<key> or label=<key>=<value>, name=<network-name> (all or part), type=custom or builtin (custom = user-defined); at 1.21 only name and id | none | 200 array of network | 200, 500 |',
    'Driver (default bridge)',
    'Labels (map)',
    'Filters parameters are JSON maps from string to array of string.',
  ],
  since: '1.21',
  tags: ['state', 'property'],
  covers: ['2:GET /networks:query:filters.name', '2:GET /networks:query:filters.id', '2:GET /networks:query:filters.driver', '2:GET /networks:query:filters.label', '2:GET /networks:query:filters.type', '2:version-rule:1.22:networks-list-filters-driver-label-type'],
}, async (context) => {
  const plans = fc.sample(world, { seed: context.session.seed, numRuns: 1 })[0] ?? [];
  const base = context.make.uniqueName('nq');
  const networks = await buildWorld(context, plans, base);
  const described = JSON.stringify(networks.map(({ name, labels: given }) => ({ name, labels: given })));
  await assertProperty(context, fc.asyncProperty(query(context.version), async (plan) => {
    const filters: Record<string, string[]> = {};
    if (plan.name) filters.name = [valueOfPart(plan.name, base, (index) => pick(networks, index).name)];
    if (plan.id) filters.id = ['absent' in plan.id ? 'f00dfeedf00dfeed' : pick(networks, plan.id.of).id.slice(0, plan.id.length)];
    for (const key of ['driver', 'label', 'type'] as const) {
      const value = plan[key as keyof typeof plan];
      if (typeof value === 'string') filters[key] = [value];
    }
    const res = await readNetworks(context, '/networks', filters);
    context.expect(res.status, `GET /networks?filters=${JSON.stringify(filters)} status`).toBe(200);
    const listed = new Set(res.json<NetworkView[] | null>()?.map((network) => network.Id) ?? []);
    const wrong = networks.flatMap((network) => {
      const expected = all(Object.entries(filters).map(([key, [value = '']]) => verdict(key, value, network)));
      const seen = listed.has(network.id) ? 'listed' : 'not listed';
      return expected === 'either' || expected === seen ? [] : [`${network.name}: ${seen}, should be ${expected}`];
    });
    context.expect(wrong, `the world's networks listed with filters ${JSON.stringify(filters)} against the spec's reading (world: ${described})`).toEqual([]);
  }), {
    numRuns: RUNS,
    // type alone, on every seed: a daemon that refuses the type filter, or leaves user-defined networks out
    // of type=custom, fails every run, not only the runs that draw it
    examples: atLeast(context.version, '1.22') ? [[{ type: 'custom' }]] : [],
  });
});
