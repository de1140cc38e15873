/**
 * GET /volumes's filters as a property (spec/2 §4.3): a small random world of volumes (names sharing
 * parts, some bound into a running container), then random queries of name (all or part), driver
 * (all or part) and dangling (true or 1), alone and together, each answer compared with what the
 * spec's words give over that world. The world comes from the run's seed as the queries do
 * (`--seed` replays both). Other checks make volumes at the same time, and a live daemon has its own:
 * only the world's volumes in an answer are judged.
 *
 * Part of a driver name is volumes.list.driver-part's (dockerd matches whole driver names only, an
 * expected failure there): the driver queries here are whole names, so that the property judges the
 * other filters on dockerd too.
 *
 * Left out, as the spec leaves them open: dangling=false and 0 (the spec gives only "true or 1"), a
 * container only created counting as a use (dockerd's; a running container is in use by any reading),
 * the label filter (not among the spec's volume filters), and how several values of one key combine
 * (each query gives one value per key; different keys must all hold, as each filter narrows the list).
 */
import fc from 'fast-check';
import { check, type CheckContext } from '../../harness/check.ts';
import { assertProperty } from '../../harness/property-check.ts';
import { startedContainer } from '../container-steps.ts';
import { listedAmong, ownVolume, uniqueVolumeName } from './volume-steps.ts';

/** Queries per run: each is one GET /volumes. */
const RUNS = 30;

/** The driver every volume of the world has: none is given, and the create row says "Driver (default local)". */
const LOCAL = 'local';

/** One volume as planned: the name's own part (after a base the world's volumes share) and whether a running container binds it. */
interface VolumePlan {
  suffix: string;
  used: boolean;
}

/** Suffixes from a few letters, so that one volume's name part is often another's too. */
const suffix = fc.stringMatching(/^[ab]{1,3}$/);
const world = fc.uniqueArray(fc.record({ suffix, used: fc.boolean() }), { minLength: 2, maxLength: 4, selector: (plan) => plan.suffix });

/** A value for the name filter: part of a world volume's name (by index, start and length, cut to it), the shared base, or a name no volume has. */
type NamePlan = { of: number; start: number; length: number } | { base: true } | { absent: true };
const namePlan: fc.Arbitrary<NamePlan> = fc.oneof(
  fc.record({ of: fc.nat(3), start: fc.nat(40), length: fc.integer({ min: 1, max: 60 }) }),
  fc.constant({ base: true as const }),
  fc.constant({ absent: true as const }),
);

const query = fc.record({
  name: namePlan,
  // the whole of local, and drivers no volume has (none of them part of local)
  driver: fc.constantFrom(LOCAL, 'shipshape-nosuch', 'bridge'),
  dangling: fc.constantFrom('true', '1'),
}, { requiredKeys: [] });

interface Volume {
  name: string;
  used: boolean;
}

/** The filter value a name plan stands for over the world's names. */
function nameValue(plan: NamePlan, base: string, volumes: Volume[]): string {
  if ('base' in plan) return base;
  if ('absent' in plan) return `${base}-zz`;
  const { name } = volumes[plan.of % volumes.length] ?? { name: base };
  const start = plan.start % name.length;
  return name.slice(start, start + plan.length);
}

/** What the spec's words list of the world's volumes with these filters: every filter given holds. */
function oracle(volumes: Volume[], filters: Record<string, string[]>): string[] {
  return volumes
    .filter((volume) => (filters.name ?? []).every((part) => volume.name.includes(part)))
    .filter(() => (filters.driver ?? []).every((part) => LOCAL.includes(part)))
    .filter((volume) => (filters.dangling ?? []).every(() => !volume.used))
    .map((volume) => volume.name)
    .sort();
}

/** Makes the world's volumes, the used ones bound into one running container; returns them with their names. */
async function buildWorld(context: CheckContext, plans: VolumePlan[], base: string): Promise<Volume[]> {
  const volumes: Volume[] = [];
  for (const plan of plans) volumes.push({ name: await ownVolume(context, {}, `${base}-${plan.suffix}`), used: plan.used });
  const used = volumes.filter((volume) => volume.used);
  if (used.length > 0) await startedContainer(context, { Cmd: ['sleep', '300'], HostConfig: { Binds: used.map((volume, index) => `${volume.name}:/data${index}`) } });
  return volumes;
}

check('volumes.list.property-filters', {
  title: 'over a random world of volumes, GET /volumes with random name, driver and dangling filters, alone and together, lists exactly the volumes every filter given matches',
  spec: '2 §4',
  quote: [
    '| GET /volumes | filters: name=<volume-name> (all or part), dangling=<boolean> (true or 1 returns volumes not in use), driver=<driver-name> (all or part) | none | 200 {Volumes (array of volume), Warnings (array)} | 200, 500 |',
    'Driver (default local)',
    'Filters parameters are JSON maps from string to array of string.',
  ],
  since: '1.18',
  tags: ['state', 'property'],
  covers: ['2:GET /volumes:query:filters.name', '2:GET /volumes:query:filters.driver', '2:GET /volumes:query:filters.dangling'],
}, async (context) => {
  const plans = fc.sample(world, { seed: context.session.seed, numRuns: 1 })[0] ?? [];
  const base = uniqueVolumeName(context, 'vq');
  const volumes = await buildWorld(context, plans, base);
  const own = volumes.map((volume) => volume.name);
  const described = JSON.stringify(volumes);
  await assertProperty(context, fc.asyncProperty(query, async (plan) => {
    const filters: Record<string, string[]> = {};
    if (plan.name) filters.name = [nameValue(plan.name, base, volumes)];
    if (plan.driver) filters.driver = [plan.driver];
    if (plan.dangling) filters.dangling = [plan.dangling];
    const listed = await listedAmong(context, own, filters);
    context.expect(listed, `the world's volumes listed with filters ${JSON.stringify(filters)} (world: ${described})`).toEqual(oracle(volumes, filters));
  }), {
    numRuns: RUNS,
    // two filters, one matching every volume and one none, on every seed: whatever the world, only
    // "every filter holds" lists nothing (either one alone, or any one of them, lists all or none)
    examples: [[{ name: { absent: true }, driver: LOCAL }]],
  });
});
