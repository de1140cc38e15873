/**
 * The filters of GET /volumes (spec/2 §4.3): name and driver, all or part of it; dangling, true for
 * volumes no container uses (and, dockerd's, false for those in use, a created container counting); label (dockerd's, not the spec's: docker-level, from 1.25). Each check makes
 * volumes of its own and judges only those in the answer: other checks create volumes at the same
 * time, and a live daemon has its own.
 */
import { check } from '../../harness/check.ts';
import { startedContainer } from '../container-steps.ts';
import { containerWithBinds, listedAmong, ownVolume, uniqueVolumeName } from './volume-steps.ts';

const LIST_ROW = '| GET /volumes |';
const LIST_ANSWER = '| none | 200 {Volumes (array of volume), Warnings (array)} | 200, 500 |';

check('volumes.list.name', {
  title: 'the name filter lists the volume of that name and not the others',
  spec: '2 §4.3',
  quote: [LIST_ROW, 'name=<volume-name> (all or part)', LIST_ANSWER],
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /volumes:query:filters.name'],
}, async (context) => {
  const wanted = await ownVolume(context);
  const other = await ownVolume(context);
  context.expect(await listedAmong(context, [wanted, other], { name: [wanted] }), `own volumes listed with name=${wanted}`).toEqual([wanted]);
});

/**
 * Filters that pick among the check's own volumes, each check listing by one or more filters
 * (`listings`, asked in this order): the names of its own volumes each lists, sorted.
 */
for (const { id, arrange, ...meta } of [
  { id: 'volumes.list.name-part', title: 'the name filter takes part of a name: it lists the volumes whose names hold it, and not the others',
    quote: [LIST_ROW, 'name=<volume-name> (all or part)', LIST_ANSWER], since: '1.18', covers: ['2:GET /volumes:query:filters.name'],
    arrange: async (context) => {
      const base = uniqueVolumeName(context, 'vp');
      const first = await ownVolume(context, {}, `${base}-first`);
      const second = await ownVolume(context, {}, `${base}-second`);
      const other = await ownVolume(context);
      return { own: [first, second, other], listings: { part: { name: [base] }, missing: { name: [`${base}-third`] } }, expected: { part: [first, second].sort(), missing: [] }, what: `own volumes listed with name=${base} and name=${base}-third` };
    } },
  { id: 'volumes.list.driver', title: 'the driver filter lists the volumes of that driver (local), and none for another driver',
    quote: [LIST_ROW, 'driver=<driver-name> (all or part)', LIST_ANSWER], since: '1.18', covers: ['2:GET /volumes:query:filters.driver'],
    arrange: async (context) => {
      const name = await ownVolume(context);
      return { own: [name], listings: { local: { driver: ['local'] }, other: { driver: ['shipshape-nosuch'] } }, expected: { local: [name], other: [] }, what: 'the own volume listed with driver=local and driver=shipshape-nosuch' };
    } },
  { id: 'volumes.list.dangling', title: 'dangling=true and dangling=1 list the volumes no container uses, not one a running container uses',
    quote: [LIST_ROW, 'dangling=<boolean> (true or 1 returns volumes not in use)', LIST_ANSWER], since: '1.18', covers: ['2:GET /volumes:query:filters.dangling'],
    arrange: async (context) => {
      const used = await ownVolume(context);
      const unused = await ownVolume(context);
      await startedContainer(context, { Cmd: ['sleep', '300'], HostConfig: { Binds: [`${used}:/data`] } });
      return { own: [used, unused], listings: { true: { dangling: ['true'] }, one: { dangling: ['1'] } }, expected: { true: [unused], one: [unused] }, what: 'own volumes listed per dangling filter' };
    } },
  { id: 'volumes.list.dangling-created', title: 'dangling=true lists the volumes no container uses, a container only created counting as a use, and dangling=false those in use',
    // The spec gives only "true or 1 returns volumes not in use": what false returns, and that a created container uses its volumes, are dockerd's.
    level: 'docker', seen: 'dockerd 20.10.24', since: '1.18',
    arrange: async (context) => {
      const used = await ownVolume(context);
      const unused = await ownVolume(context);
      await containerWithBinds(context, [`${used}:/data`]);
      return { own: [used, unused], listings: { true: { dangling: ['true'] }, one: { dangling: ['1'] }, false: { dangling: ['false'] } }, expected: { true: [unused], one: [unused], false: [used] }, what: 'own volumes listed per dangling filter' };
    } },
  { id: 'volumes.list.label', title: 'from 1.25 the label filter takes key (any value) or key=value, and several labels must all match',
    // The spec's volume list filters are name, dangling and driver: label is dockerd's.
    level: 'docker', seen: 'dockerd 20.10.24', since: '1.25', covers: ['2:GET /volumes'],
    arrange: async (context) => {
      const red = await ownVolume(context, { 'shipshape.colour': 'red', 'shipshape.size': 'big' });
      const blue = await ownVolume(context, { 'shipshape.colour': 'blue' });
      return {
        own: [red, blue],
        listings: { key: { label: ['shipshape.colour'] }, value: { label: ['shipshape.colour=red'] }, both: { label: ['shipshape.colour', 'shipshape.size=big'] }, none: { label: ['shipshape.colour=green'] } },
        expected: { key: [red, blue].sort(), value: [red], both: [red], none: [] },
        what: 'own volumes listed per label filter',
      };
    } },
] satisfies (Omit<Parameters<typeof check>[1], 'spec' | 'tags'> & { id: string; arrange: (context: Parameters<typeof ownVolume>[0]) => Promise<{ own: string[]; listings: Record<string, Record<string, string[]>>; expected: Record<string, string[]>; what: string }> })[]) {
  check(id, { ...meta, spec: '2 §4.3', tags: ['state'] }, async (context) => {
    const { own, listings, expected, what } = await arrange(context);
    const seen: Record<string, string[]> = {};
    for (const [listing, filters] of Object.entries(listings)) seen[listing] = await listedAmong(context, own, filters);
    context.expect(seen, what).toEqual(expected);
  });
}

check('volumes.list.driver-part', {
  title: 'the driver filter takes part of a driver name: driver=loc lists the volumes of the local driver',
  spec: '2 §4.3',
  quote: [LIST_ROW, 'driver=<driver-name> (all or part)', LIST_ANSWER],
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /volumes:query:filters.driver'],
}, async (context) => {
  const name = await ownVolume(context);
  context.expect(await listedAmong(context, [name], { driver: ['loc'] }), 'the own volume listed with driver=loc').toEqual([name]);
});
