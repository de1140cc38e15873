/**
 * POST /containers/prune (Docker's, API 1.25; the spec does not describe it): every container that
 * is not running, among those the filters select, is removed; the answer names them and the bytes
 * freed; a `prune` event follows. Each check prunes only containers with its own label.
 */
import { check } from '../../harness/check.ts';
import { eventsFromNow, receivedEvents, type EventView } from '../daemon-events.ts';
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
  title: 'POST /containers/prune emits destroy for each container it removes, then a container prune event with no id, an empty Actor.ID and the SpaceReclaimed as its reclaimed attribute',
  tags: ['state'],
}, async (context) => {
  const { labels, mark } = pruneMark(context);
  const id = await createdContainer(context, { Labels: labels });
  const stream = await eventsFromNow(context, { type: ['container'] });
  try {
    const reclaimed = (await pruned<ContainersPruned>(context, 'containers', mark)).SpaceReclaimed;
    // Other checks prune at the same time: the prune event wanted is one after this container's destroy.
    const isOurs = (event: EventView) => event.Action === 'destroy' && event.Actor?.ID === id;
    const prunesAfterOurs = (events: EventView[]) => {
      const ours = events.findIndex(isOurs);
      return ours < 0 ? [] : events.slice(ours + 1).filter((event) => event.Action === 'prune');
    };
    // The stream carries every check's container events: ask once per arrival, not once per event.
    await stream.waitFor(() => prunesAfterOurs(receivedEvents(stream)).length > 0);
    const events = stream.jsonObjects<EventView>();
    const seen = events.map((event) => `${event.Action} ${event.Actor?.ID?.slice(0, 12) ?? ''}`).join(', ');
    const prunes = prunesAfterOurs(events);
    context.expect(prunes.length > 0, `destroy of ${id.slice(0, 12)} then prune among: ${seen}`).toBe(true);
    const ownPrune = prunes.find((event) => event.Actor?.Attributes?.reclaimed === String(reclaimed));
    context.expect(ownPrune?.Actor?.Attributes?.reclaimed, `a prune event with reclaimed ${reclaimed} among ${JSON.stringify(prunes)}`).toBe(String(reclaimed));
    context.expect({ id: ownPrune?.id, actor: ownPrune?.Actor?.ID }, 'the prune event\'s id (left out) and Actor.ID (empty)').toEqual({ id: undefined, actor: '' });
  } finally {
    stream.close();
  }
});
