/**
 * POST /volumes/prune (Docker's, API 1.25; the spec does not describe it): every volume no container
 * uses, among those the label filters select, is removed (named ones too, before API 1.42); `until`
 * is no volume filter. Each check prunes only volumes with its own label.
 */
import { check } from '../../harness/check.ts';
import { actionName, eventsDuring } from '../daemon-events.ts';
import { outlastingRaces, pruned, pruneMark } from '../prune-steps.ts';
import { containerWithBinds, ownVolume, uniqueVolumeName, volumeStatus } from './volume-steps.ts';

interface VolumesPruned {
  VolumesDeleted: string[] | null;
  SpaceReclaimed: number;
}

const DOCKER = { spec: '2 §4.3', level: 'docker', seen: 'dockerd 20.10.24', since: '1.25' } as const;

check('volumes.prune.unused', {
  ...DOCKER,
  title: 'POST /volumes/prune removes the volumes its label filter selects that no container uses, and keeps one a created container mounts',
  tags: ['state'],
}, async (context) => {
  const { labels, mark } = pruneMark(context);
  const unused = await ownVolume(context, labels);
  const used = await ownVolume(context, labels);
  await containerWithBinds(context, [`${used}:/data`]);
  const answer = await pruned<VolumesPruned>(context, 'volumes', mark);
  context.expect(answer.VolumesDeleted, `VolumesDeleted: ${JSON.stringify(answer)}`).toEqual([unused]);
  context.expect(typeof answer.SpaceReclaimed, 'SpaceReclaimed').toBe('number');
  context.expect(await volumeStatus(context, unused), 'GET /volumes/{unused} status after the prune').toBe(404);
  context.expect(await volumeStatus(context, used), 'GET /volumes/{used} status after the prune').toBe(200);
});

check('volumes.prune.until-refused', {
  ...DOCKER,
  title: 'POST /volumes/prune with an until filter answers 400: volumes take no until filter',
  tags: ['error'],
}, async (context) => {
  const { mark } = pruneMark(context);
  const res = await outlastingRaces(() => context.engine.post('/volumes/prune', { query: { filters: JSON.stringify({ label: [mark], until: ['10m'] }) } }));
  context.expect(res.status, `POST /volumes/prune with until: ${res.describe()}`).toBe(400);
});

check('volumes.prune.events', {
  ...DOCKER,
  title: 'POST /volumes/prune emits a volume prune event with the reclaimed bytes, and no destroy event for the volumes it removes',
  tags: ['state'],
}, async (context) => {
  const { labels, mark } = pruneMark(context);
  const name = await ownVolume(context, labels, uniqueVolumeName(context));
  let reclaimed = -1;
  const events = await eventsDuring(context, { type: ['volume'] }, async () => {
    reclaimed = (await pruned<VolumesPruned>(context, 'volumes', mark)).SpaceReclaimed;
  }, (event) => actionName(event) === 'prune');
  const prune = events.find((event) => event.Action === 'prune');
  context.expect(prune?.Actor?.Attributes?.reclaimed, `the volume prune event among ${events.map((event) => event.Action).join(', ')}`).toBe(String(reclaimed));
  context.expect(events.some((event) => event.Action === 'destroy' && event.Actor?.ID === name), `a destroy event for ${name}`).toBe(false);
});
