/**
 * The filters of GET /events (spec/2 §4.2, §6), each with a case it lets through and one it must hold
 * back: with the stream open, a decoy event that the filter must not pass happens first, then one it
 * must; once the second has come, the first would have come before it. At spec level the object
 * filters are given the object's id (`container`, `network`; a volume has only its name), `image` an
 * image's name, judged on that image's own tag event, `type` alone, `label` the actor's labels (from
 * 1.21); `daemon` (from 1.24) only daemon events, which no request causes, so that case is judged on a
 * closed window instead. The spec does not say `container=` and `network=` take a name, nor that
 * `image=` lets a container's events through: those readings are dockerd's (docker-level cases).
 */
import { check, type CheckContext } from '../../harness/check.ts';
import type { ApiVersion } from '../../protocol/versions.ts';
import { startContainer } from '../container-steps.ts';
import { actionName, daemonSeconds, secondPassed, eventsDuring, type EventFilters, type EventView } from '../daemon-events.ts';
import { bareImageId, committedImage, inspectImage, taggedFixture, tagImage, uniqueImageName } from '../image-steps.ts';
import { ownNetwork } from '../networks/network-steps.ts';
import { ownVolume, uniqueVolumeName } from '../volumes/volume-steps.ts';

type EventTest = (event: EventView) => boolean;

interface FilterCase {
  filter: string;
  title: string;
  covers: string[];
  since: ApiVersion;
  /** the spec sentences the case rests on (spec/2 §4.2, §6); none for a docker-level case */
  quote?: string[];
  /** a filter form the spec does not give, pinned as dockerd reads it */
  docker?: true;
  /** arranges what the case needs (before the stream opens); returns the filters and the two steps */
  arrange: (context: CheckContext) => Promise<{ filters: EventFilters; decoy: () => Promise<EventTest>; match: () => Promise<EventTest> }>;
}

function byActor(id: string, action?: string): EventTest {
  return (event) => event.Actor?.ID === id && (action === undefined || actionName(event) === action);
}

/** An image event whose actor or attributes name `name` (spec/2 §6 rule 1 names no keys for it). */
function imageEventNaming(name: string, action?: string): EventTest {
  return (event) => event.Type === 'image' && (action === undefined || actionName(event) === action)
    && (event.Actor?.ID === name || Object.values(event.Actor?.Attributes ?? {}).includes(name));
}

/** An image event of the image `id` (its Actor.ID or legacy id, with or without the digest's algorithm) or naming `name`. */
function imageEventOf(id: string, name: string, action?: string): EventTest {
  const naming = imageEventNaming(name, action);
  return (event) => naming(event) || (event.Type === 'image' && (action === undefined || actionName(event) === action)
    && [event.Actor?.ID, event.id].some((subject) => subject !== undefined && subject !== '' && bareImageId(subject) === bareImageId(id)));
}

function newContainer(context: CheckContext, config: Record<string, unknown> = {}, name?: string): Promise<string> {
  return context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], ...config }, name);
}

/** Two containers, the decoy made first: a filter by the matching one's name lets only its events through. */
function containerNamed(filters: (name: string) => EventFilters): FilterCase['arrange'] {
  return async (context) => {
    const name = context.make.uniqueName('match');
    return {
      filters: filters(name),
      decoy: async () => byActor(await newContainer(context)),
      match: async () => byActor(await newContainer(context, {}, name), 'create'),
    };
  };
}

const CASES: FilterCase[] = [
  {
    filter: 'container',
    title: 'container=<id> lets through the events of that container and not those of another',
    quote: ['Event filters: container=<string>, event=<string>, image=<string>, label=<string> (image and container labels), type=<string> (container, image, volume, network or daemon), volume=<string>, network=<string>, daemon=<string> (name or id).', '| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |'],
    covers: ['2:GET /events:query:filters.container'],
    since: '1.18',
    arrange: async (context) => {
      const decoyId = await newContainer(context);
      const matchId = await newContainer(context);
      return {
        filters: { container: [matchId] },
        decoy: async () => {
          await startContainer(context, decoyId);
          return byActor(decoyId);
        },
        match: async () => {
          await startContainer(context, matchId);
          return byActor(matchId, 'start');
        },
      };
    },
  },
  {
    filter: 'container-name',
    title: 'container=<name> lets through the events of that container and not those of another (as dockerd)',
    covers: [],
    since: '1.18',
    docker: true,
    arrange: containerNamed((name) => ({ container: [name] })),
  },
  {
    filter: 'map-form',
    title: 'filters in the map form {"container": {"<name>": true}} (dockerd\'s, not the spec\'s lists) filter as the list form does',
    covers: [],
    since: '1.18',
    docker: true,
    arrange: containerNamed((name) => ({ container: { [name]: true } })),
  },
  {
    filter: 'event',
    title: 'event=start lets through the start of a container and not its export',
    quote: ['Event filters: container=<string>, event=<string>, image=<string>, label=<string> (image and container labels), type=<string> (container, image, volume, network or daemon), volume=<string>, network=<string>, daemon=<string> (name or id).', '| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'export (emitted by the export operation)'],
    covers: ['2:GET /events:query:filters.event'],
    since: '1.18',
    arrange: async (context) => {
      const id = await newContainer(context);
      return {
        filters: { container: [id], event: ['start'] },
        decoy: async () => {
          // export: an event of its own (spec/2 §6 rule 2), and one the container surely has
          const res = await context.engine.get(`/containers/${id}/export`);
          context.expect(res.status, 'GET /containers/{id}/export status').toBe(200);
          return byActor(id, 'export');
        },
        match: async () => {
          await startContainer(context, id);
          return byActor(id, 'start');
        },
      };
    },
  },
  {
    filter: 'image',
    title: 'image=<name> lets through the events of containers of that image and not those of another image (as dockerd)',
    covers: [],
    since: '1.18',
    docker: true,
    arrange: async (context) => {
      const image = await taggedFixture(context, 'events');
      return {
        filters: { image: [image] },
        decoy: async () => byActor(await newContainer(context)),
        match: async () => byActor(await newContainer(context, { Image: image }), 'create'),
      };
    },
  },
  {
    filter: 'image-tag',
    title: 'image=<name> lets through the tag event naming that image and not the tag event of another image',
    quote: ['Event filters: container=<string>, event=<string>, image=<string>, label=<string> (image and container labels), type=<string> (container, image, volume, network or daemon), volume=<string>, network=<string>, daemon=<string> (name or id).', '| image | delete, import, load, pull, push, save, tag, untag |'],
    covers: ['2:GET /events:query:filters.image'],
    since: '1.18',
    arrange: async (context) => {
      // Two images: the decoy's tag names the other one (a commit of a container of the fixture).
      const other = await committedImage(context, {});
      // The spec does not say what an image event's Actor holds: the image's id, or the name it got, count alike.
      const fixtureId = (await inspectImage(context, context.session.fixtureImage)).Id;
      const [decoyName, matchName] = [uniqueImageName(context, 'decoy'), uniqueImageName(context, 'match')];
      return {
        filters: { image: [matchName] },
        decoy: async () => {
          context.expect((await tagImage(context, other, decoyName)).status, 'POST /images/{other}/tag status').toBe(201);
          return imageEventOf(other, decoyName);
        },
        match: async () => {
          context.expect((await tagImage(context, context.session.fixtureImage, matchName)).status, 'POST /images/{fixture}/tag status').toBe(201);
          return imageEventOf(fixtureId, matchName, 'tag');
        },
      };
    },
  },
  {
    filter: 'type',
    title: 'type=container with image=<name> lets through a container of that image and not the tag event of that name (as dockerd)',
    covers: [],
    since: '1.18',
    docker: true,
    arrange: async (context) => {
      const image = uniqueImageName(context, 'events');
      return {
        filters: { type: ['container'], image: [image] },
        decoy: async () => {
          context.expect((await tagImage(context, context.session.fixtureImage, image)).status, 'POST /images/{fixture}/tag status').toBe(201);
          return (event) => event.Type === 'image';
        },
        match: async () => byActor(await newContainer(context, { Image: image }), 'create'),
      };
    },
  },
  {
    filter: 'type-only',
    title: 'type=container lets through the create of a container and not the tag event of an image',
    quote: ['Event filters: container=<string>, event=<string>, image=<string>, label=<string> (image and container labels), type=<string> (container, image, volume, network or daemon), volume=<string>, network=<string>, daemon=<string> (name or id).', '| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', '| image | delete, import, load, pull, push, save, tag, untag |'],
    covers: ['2:GET /events:query:filters.type'],
    since: '1.18',
    arrange: async (context) => {
      const image = uniqueImageName(context, 'events');
      return {
        filters: { type: ['container'] },
        decoy: async () => {
          context.expect((await tagImage(context, context.session.fixtureImage, image)).status, 'POST /images/{fixture}/tag status').toBe(201);
          // type=container holds back every image event, whatever it names
          return (event) => event.Type === 'image';
        },
        match: async () => byActor(await newContainer(context), 'create'),
      };
    },
  },
  {
    filter: 'label',
    title: 'label=<key>=<value> lets through the events of a container with that label and not one whose label has another value',
    quote: ['Event filters: container=<string>, event=<string>, image=<string>, label=<string> (image and container labels), type=<string> (container, image, volume, network or daemon), volume=<string>, network=<string>, daemon=<string> (name or id).', 'filtering by image and container labels from 1.21'],
    covers: ['2:GET /events:query:filters.label', '2:version-rule:1.21:events-label-filter'],
    since: '1.21',
    arrange: async (context) => {
      const key = `${context.make.uniqueName('label')}`;
      return {
        filters: { label: [`${key}=match`] },
        decoy: async () => byActor(await newContainer(context, { Labels: { [key]: 'decoy' } })),
        match: async () => byActor(await newContainer(context, { Labels: { [key]: 'match' } }), 'create'),
      };
    },
  },
  {
    filter: 'volume',
    title: 'volume=<name> lets through the events of that volume and not those of another',
    quote: ['Event filters: container=<string>, event=<string>, image=<string>, label=<string> (image and container labels), type=<string> (container, image, volume, network or daemon), volume=<string>, network=<string>, daemon=<string> (name or id).'],
    covers: ['2:GET /events:query:filters.volume'],
    since: '1.18',
    arrange: async (context) => {
      const name = uniqueVolumeName(context, 'match');
      return {
        filters: { volume: [name] },
        decoy: async () => byActor(await ownVolume(context)),
        match: async () => byActor(await ownVolume(context, {}, name), 'create'),
      };
    },
  },
  {
    filter: 'network',
    title: 'network=<id> lets through the events of that network and not those of another',
    quote: ['Event filters: container=<string>, event=<string>, image=<string>, label=<string> (image and container labels), type=<string> (container, image, volume, network or daemon), volume=<string>, network=<string>, daemon=<string> (name or id).', '| network | create, connect, disconnect, destroy |'],
    covers: ['2:GET /events:query:filters.network'],
    since: '1.21',
    arrange: async (context) => {
      const decoyId = await ownNetwork(context, { Name: context.make.uniqueName('decoy') });
      const matchId = await ownNetwork(context, { Name: context.make.uniqueName('match') });
      const destroy = async (id: string) => {
        const res = await context.engine.delete(`/networks/${id}`);
        // 204, 200 at 1.21 (spec/2 §4.4)
        context.expect([200, 204], `DELETE /networks/{id} status`).toContain(res.status);
      };
      return {
        filters: { network: [matchId] },
        decoy: async () => {
          await destroy(decoyId);
          return byActor(decoyId);
        },
        match: async () => {
          await destroy(matchId);
          return byActor(matchId, 'destroy');
        },
      };
    },
  },
  {
    filter: 'network-name',
    title: 'network=<name> lets through the events of that network and not those of another (as dockerd)',
    covers: [],
    since: '1.21',
    docker: true,
    arrange: async (context) => {
      const name = context.make.uniqueName('match');
      return {
        filters: { network: [name] },
        decoy: async () => byActor(await ownNetwork(context, { Name: context.make.uniqueName('decoy') })),
        match: async () => byActor(await ownNetwork(context, { Name: name }), 'create'),
      };
    },
  },
];

for (const { filter, title, quote, covers, since, docker, arrange } of CASES) {
  const level = docker ? { level: 'docker' as const, seen: 'dockerd 20.10.24' } : {};
  check(`events.filter.${filter}`, { title, spec: '2 §4.2, §6', ...(quote && { quote }), ...level, since, tags: ['stream'], covers }, async (context) => {
    const { filters, decoy, match } = await arrange(context);
    let isDecoy: EventTest = () => false;
    let isMatch: EventTest = () => false;
    const events = await eventsDuring(context, filters, async () => {
      isDecoy = await decoy();
      isMatch = await match();
    }, (event) => isMatch(event));
    const seen = JSON.stringify(events.map((event) => `${event.Type ?? '?'} ${event.Action ?? '?'} ${event.Actor?.ID?.slice(0, 12) ?? '?'}`));
    context.expect(events.some(isMatch), `the event the filter ${JSON.stringify(filters)} must let through came (events that came: ${seen})`).toBe(true);
    context.expect(events.some(isDecoy), `the decoy's events, which the filter must hold back, came (events that came: ${seen})`).toBe(false);
  });
}

check('events.filter.daemon', {
  title: 'daemon=<id> lets only daemon events through: a window holding a container\'s create answers it without the filter and not with it',
  spec: '2 §4.2, §6',
  quote: ['Event filters: container=<string>, event=<string>, image=<string>, label=<string> (image and container labels), type=<string> (container, image, volume, network or daemon), volume=<string>, network=<string>, daemon=<string> (name or id).', 'filtering by daemon name or id exists from 1.24'],
  since: '1.24',
  tags: ['stream'],
  covers: ['2:GET /events:query:filters.daemon', '2:version-rule:1.24:events-daemon-filter'],
}, async (context) => {
  const info = await context.engine.get('/info');
  context.expect(info.status, 'GET /info status').toBe(200);
  const daemon = info.json<{ ID: string }>().ID;
  const since = await daemonSeconds(context);
  const id = await newContainer(context);
  const past = await secondPassed(context);
  const window = async (filters: EventFilters) => {
    const res = await context.engine.get('/events', { query: { since, until: past, filters: JSON.stringify(filters) }, signal: AbortSignal.timeout(10_000) });
    context.expect(res.status, 'GET /events status').toBe(200);
    return res.text().includes(id);
  };
  context.expect({ unfiltered: await window({ container: [id] }), daemon: await window({ container: [id], daemon: [daemon] }) }, `the container's events in the window, without and with daemon=${daemon}`).toEqual({ unfiltered: true, daemon: false });
});
