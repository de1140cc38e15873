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

check('volumes.list.name-part', {
  title: 'the name filter takes part of a name: it lists the volumes whose names hold it, and not the others',
  spec: '2 §4.3',
  quote: [LIST_ROW, 'name=<volume-name> (all or part)', LIST_ANSWER],
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /volumes:query:filters.name'],
}, async (context) => {
  const base = uniqueVolumeName(context, 'vp');
  const first = await ownVolume(context, {}, `${base}-first`);
  const second = await ownVolume(context, {}, `${base}-second`);
  const other = await ownVolume(context);
  const own = [first, second, other];
  const seen = { part: await listedAmong(context, own, { name: [base] }), missing: await listedAmong(context, own, { name: [`${base}-third`] }) };
  context.expect(seen, `own volumes listed with name=${base} and name=${base}-third`).toEqual({ part: [first, second].sort(), missing: [] });
});

check('volumes.list.driver', {
  title: 'the driver filter lists the volumes of that driver (local), and none for another driver',
  spec: '2 §4.3',
  quote: [LIST_ROW, 'driver=<driver-name> (all or part)', LIST_ANSWER],
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /volumes:query:filters.driver'],
}, async (context) => {
  const name = await ownVolume(context);
  const seen = { local: await listedAmong(context, [name], { driver: ['local'] }), other: await listedAmong(context, [name], { driver: ['shipshape-nosuch'] }) };
  context.expect(seen, 'the own volume listed with driver=local and driver=shipshape-nosuch').toEqual({ local: [name], other: [] });
});

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

check('volumes.list.dangling', {
  title: 'dangling=true and dangling=1 list the volumes no container uses, not one a running container uses',
  spec: '2 §4.3',
  quote: [LIST_ROW, 'dangling=<boolean> (true or 1 returns volumes not in use)', LIST_ANSWER],
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /volumes:query:filters.dangling'],
}, async (context) => {
  const used = await ownVolume(context);
  const unused = await ownVolume(context);
  await startedContainer(context, { Cmd: ['sleep', '300'], HostConfig: { Binds: [`${used}:/data`] } });
  const own = [used, unused];
  const seen = { true: await listedAmong(context, own, { dangling: ['true'] }), one: await listedAmong(context, own, { dangling: ['1'] }) };
  context.expect(seen, 'own volumes listed per dangling filter').toEqual({ true: [unused], one: [unused] });
});

check('volumes.list.dangling-created', {
  title: 'dangling=true lists the volumes no container uses, a container only created counting as a use, and dangling=false those in use',
  spec: '2 §4.3',
  // The spec gives only "true or 1 returns volumes not in use": what false returns, and that a created container uses its volumes, are dockerd's.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const used = await ownVolume(context);
  const unused = await ownVolume(context);
  await containerWithBinds(context, [`${used}:/data`]);
  const own = [used, unused];
  const seen = { true: await listedAmong(context, own, { dangling: ['true'] }), one: await listedAmong(context, own, { dangling: ['1'] }), false: await listedAmong(context, own, { dangling: ['false'] }) };
  context.expect(seen, 'own volumes listed per dangling filter').toEqual({ true: [unused], one: [unused], false: [used] });
});

check('volumes.list.label', {
  title: 'from 1.25 the label filter takes key (any value) or key=value, and several labels must all match',
  spec: '2 §4.3',
  // The spec's volume list filters are name, dangling and driver: label is dockerd's.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['state'],
  covers: ['2:GET /volumes'],
}, async (context) => {
  const red = await ownVolume(context, { 'shipshape.colour': 'red', 'shipshape.size': 'big' });
  const blue = await ownVolume(context, { 'shipshape.colour': 'blue' });
  const own = [red, blue];
  const seen = {
    key: await listedAmong(context, own, { label: ['shipshape.colour'] }),
    value: await listedAmong(context, own, { label: ['shipshape.colour=red'] }),
    both: await listedAmong(context, own, { label: ['shipshape.colour', 'shipshape.size=big'] }),
    none: await listedAmong(context, own, { label: ['shipshape.colour=green'] }),
  };
  context.expect(seen, 'own volumes listed per label filter').toEqual({ key: own.sort(), value: [red], both: [red], none: [] });
});
