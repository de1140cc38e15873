/**
 * POST /containers/prune (Docker's, API 1.25; the spec does not describe it): every container that
 * is not running, among those the filters select, is removed; the answer names them and the bytes
 * freed; a `prune` event follows. Each check prunes only containers with its own label.
 */
import { check } from '../../harness/check.ts';
import { actionName, eventsDuring } from '../daemon-events.ts';
import { createdContainer, exitedContainer, startedContainer } from '../container-steps.ts';
import { pruned, pruneMark } from '../prune-steps.ts';

interface ContainersPruned {
  ContainersDeleted: string[] | null;
  SpaceReclaimed: number;
}

const DOCKER = { spec: '1 §4.1', level: 'docker', seen: 'dockerd 20.10.24', since: '1.25' } as const;

async function containerStatus({ engine }: Parameters<typeof createdContainer>[0], id: string): Promise<number> {
  return (await engine.get(`/containers/${id}/json`)).status;
}

check('containers.prune.not-running', {
  ...DOCKER,
  title: 'POST /containers/prune removes the created and exited containers its label filter selects, not a running one, and names them in ContainersDeleted',
  tags: ['state'],
}, async (context) => {
  const { labels, mark } = pruneMark(context);
  const created = await createdContainer(context, { Labels: labels });
  const exited = await exitedContainer(context, { Labels: labels, Cmd: ['true'] });
  const running = await startedContainer(context, { Labels: labels, Cmd: ['sleep', '30'] });
  const answer = await pruned<ContainersPruned>(context, 'containers', mark);
  context.expect([...(answer.ContainersDeleted ?? [])].sort(), 'ContainersDeleted').toEqual([created, exited].sort());
  context.expect(typeof answer.SpaceReclaimed, `SpaceReclaimed: ${JSON.stringify(answer)}`).toBe('number');
  context.expect(await containerStatus(context, exited), 'GET /containers/{exited}/json status after the prune').toBe(404);
  context.expect(await containerStatus(context, running), 'GET /containers/{running}/json status after the prune').toBe(200);
});

check('containers.prune.label-not', {
  ...DOCKER,
  title: 'POST /containers/prune with a label! filter keeps the containers that have that label',
  tags: ['state'],
}, async (context) => {
  const { labels, mark } = pruneMark(context);
  const kept = await createdContainer(context, { Labels: { ...labels, 'shipshape.keep': 'yes' } });
  const gone = await createdContainer(context, { Labels: labels });
  const answer = await pruned<ContainersPruned>(context, 'containers', mark, { 'label!': ['shipshape.keep=yes'] });
  context.expect(answer.ContainersDeleted, 'ContainersDeleted').toEqual([gone]);
  context.expect(await containerStatus(context, kept), 'GET /containers/{kept}/json status after the prune').toBe(200);
});

check('containers.prune.until', {
  ...DOCKER,
  title: 'POST /containers/prune with until before a container was created keeps it',
  tags: ['state'],
}, async (context) => {
  const { labels, mark } = pruneMark(context);
  const kept = await createdContainer(context, { Labels: labels });
  const answer = await pruned<ContainersPruned>(context, 'containers', mark, { until: ['1000000000'] });
  context.expect(answer.ContainersDeleted ?? [], 'ContainersDeleted of a prune until 2001').toEqual([]);
  context.expect(await containerStatus(context, kept), 'GET /containers/{kept}/json status after the prune').toBe(200);
});

check('containers.prune.events', {
  ...DOCKER,
  title: 'POST /containers/prune emits destroy for each container it removes, then a container prune event whose reclaimed attribute is the SpaceReclaimed',
  tags: ['state'],
}, async (context) => {
  const { labels, mark } = pruneMark(context);
  const id = await createdContainer(context, { Labels: labels });
  let reclaimed = -1;
  const events = await eventsDuring(context, { type: ['container'] }, async () => {
    reclaimed = (await pruned<ContainersPruned>(context, 'containers', mark)).SpaceReclaimed;
  }, (event) => actionName(event) === 'prune');
  const destroyAt = events.findIndex((event) => event.Action === 'destroy' && event.Actor?.ID === id);
  const prune = events.findIndex((event, index) => index > destroyAt && event.Action === 'prune');
  const seen = events.map((event) => `${event.Action} ${event.Actor?.ID?.slice(0, 12) ?? ''}`).join(', ');
  context.expect(destroyAt >= 0 && prune > destroyAt, `destroy of ${id.slice(0, 12)} then prune among: ${seen}`).toBe(true);
  context.expect(events[prune]?.Actor?.Attributes?.reclaimed, 'the prune event\'s reclaimed attribute').toBe(String(reclaimed));
});
