/**
 * GET /events as a property (spec/2 §4.2, §6): a small random world of containers, volumes, networks
 * (from 1.21) and one committed image, with random labels, made in two phases in different seconds
 * of the daemon's clock, each step between two readings of it (GET /info SystemTime); then random queries
 * over that world: `since` alone (read with a bounded reader: it streams on), `until` alone, both,
 * and every filter of §4.2 alone and up to three together (container, event, image, label from 1.21,
 * type, volume, network, daemon from 1.24). Each answer, narrowed to the world's events, is compared
 * with what the spec's words give over the world: per kind of event (type, action, object), how
 * many must come, and whether any may. A few streams with `until` alone (a second ahead) and
 * filters drawn with the world are opened before it is made: they must carry what happens before
 * `until` and end by themselves. The world and the queries come from the run's seed (`--seed`).
 *
 * What the oracle leaves open, as the spec does: whether an event in the very second of `since` or
 * `until` counts (a timestamp is read as an instant or as the whole second of `time`); whether
 * `until` without `since` replays anything from before the request (dockerd replays what it kept up
 * to `until`); what image=<name> does beyond the tag event of that name (other events of the image,
 * containers of an image: dockerd's reading is docker-level); whether container=<id> takes in network
 * connect events naming the container; whether a label filter takes in volume and network labels
 * ("image and container labels"); whether deleting an image's last name also emits delete (rule 3:
 * "may"); how many times one step's event is sent (dockerd sends a network disconnect twice: at least
 * once is asked); how several values of one filter combine (each query gives one; different filters
 * must all hold, as each narrows the stream). Daemon events cannot be caused through the API: the daemon and
 * type=daemon filters are judged by what they hold back.
 */
import fc from 'fast-check';
import { check, type CheckContext } from '../../harness/check.ts';
import { openStream, type StreamedResponse } from '../../harness/client/streamed-response.ts';
import { assertProperty } from '../../harness/property-check.ts';
import { atLeast } from '../../protocol/versions.ts';
import { exitedState, startContainer } from '../container-steps.ts';
import { actionName, daemonSeconds, receivedEvents, secondPassed, type EventView } from '../daemon-events.ts';
import { bareImageId, commit, removeImage, tagImage, uniqueImageName } from '../image-steps.ts';
import { connected, disconnect, ownNetwork } from '../networks/network-steps.ts';
import { ownVolume, uniqueVolumeName } from '../volumes/volume-steps.ts';

/** Queries per run: each is one GET /events. */
const RUNS = 30;
/** How long a stream whose `until` has passed may take to end, and one reading `since` alone may wait for what must come. */
const STREAM_MS = 5_000;
/** After what must come has come on a stream with `since` alone, how long more it is read for what must not. */
const SETTLE_MS = 100;
/** openStream's deadline for a whole request (harness/client/streamed-response.ts): a stream that ends sooner was ended by the target. */
const REQUEST_DEADLINE_MS = 30_000;

/** must come, may come, must not come */
type Verdict = 'yes' | 'maybe' | 'no';
const RANK: Record<Verdict, number> = { no: 0, maybe: 1, yes: 2 };
function least(...verdicts: Verdict[]): Verdict {
  return verdicts.reduce((low, verdict) => (RANK[verdict] < RANK[low] ? verdict : low), 'yes');
}

// ---- the world, as planned (sampled from the seed) ----

/** Labels by slot: each slot stands for a key of the check's own. */
const labelPlan = fc.record({ a: fc.constantFrom('x', 'y'), b: fc.constantFrom('x', 'y') }, { requiredKeys: [] });
/** born: the phase it is made in (0 or 1); the rest happens in phase 1, after what is made there */
const worldPlan = fc.record({
  containers: fc.array(fc.record({ labels: labelPlan, born: fc.constantFrom(0, 1), fate: fc.constantFrom('created', 'exited', 'killed'), removed: fc.boolean() }), { minLength: 1, maxLength: 2 }),
  volumes: fc.array(fc.record({ labels: labelPlan, born: fc.constantFrom(0, 1), removed: fc.boolean() }), { minLength: 1, maxLength: 2 }),
  networks: fc.array(fc.record({ labels: labelPlan, born: fc.constantFrom(0, 1), joined: fc.boolean(), removed: fc.boolean() }), { minLength: 1, maxLength: 2 }),
  image: fc.record({ labels: labelPlan, born: fc.constantFrom(0, 1), secondName: fc.boolean(), untag: fc.constantFrom('none', 'first', 'all') }),
});
type WorldPlan = (typeof worldPlan) extends fc.Arbitrary<infer T> ? T : never;
type LabelPlan = WorldPlan['image']['labels'];

type Kind = 'container' | 'image' | 'volume' | 'network';

interface WorldObject {
  kind: Kind;
  /** how the failure messages name it: c0, v1, n0, image */
  handle: string;
  /** container and network id, volume name, image id */
  id: string;
  labels: Record<string, string>;
  /** an image's names, ever given */
  names: string[];
}

interface WorldEvent {
  type: Kind;
  action: string;
  object: WorldObject;
  phase: number;
  /** the daemon's seconds read just before and just after the step that caused it */
  seconds: { lo: number; hi: number };
  /** false where the spec says only "may" (delete after the last name) */
  certain: boolean;
  /** the name a tag or untag event is about */
  name?: string;
  /** the container a network connect or disconnect is about */
  container?: WorldObject;
}

interface World {
  objects: WorldObject[];
  events: WorldEvent[];
  /** per phase, the daemon's second before it began and after it ended */
  phases: { lo: number; hi: number }[];
  /** the daemon's second before anything was made, and a second the clock had left once all was done */
  start: number;
  end: number;
}

/** What is known before the world is made: the streams opened before it can filter by these only. */
interface Known {
  labelKeys: { a: string; b: string; none: string };
  volumeNames: string[];
  imageNames: string[];
  fixture: string;
  daemon: { id: string; name: string };
}

// ---- queries ----

const FILTERS = ['container', 'event', 'image', 'label', 'type', 'volume', 'network', 'daemon'] as const;
type FilterName = (typeof FILTERS)[number];
const ACTIONS = ['create', 'start', 'die', 'kill', 'destroy', 'commit', 'tag', 'untag', 'delete', 'connect', 'disconnect', 'pause'] as const;

/** Mostly one filter, often two, now and then none or three. */
const filterKeys = fc.oneof(
  { arbitrary: fc.constant([] as FilterName[]), weight: 1 },
  { arbitrary: fc.subarray([...FILTERS], { minLength: 1, maxLength: 1 }), weight: 4 },
  { arbitrary: fc.subarray([...FILTERS], { minLength: 2, maxLength: 2 }), weight: 3 },
  { arbitrary: fc.subarray([...FILTERS], { minLength: 3, maxLength: 3 }), weight: 1 },
);
const filterPlan = fc.record({
  keys: filterKeys,
  /** an index into the containers, volumes, networks and image names; one past the end is a value none has */
  object: fc.nat(4),
  event: fc.constantFrom(...ACTIONS),
  label: fc.record({ slot: fc.constantFrom('a', 'b', 'none'), value: fc.constantFrom('x', 'y') }),
  type: fc.constantFrom('container', 'image', 'volume', 'network', 'daemon'),
  daemon: fc.constantFrom('id', 'name'),
});
type FilterPlan = (typeof filterPlan) extends fc.Arbitrary<infer T> ? T : never;

/** Seconds as offsets into the world's seconds (one before its start to its end). */
const windowPlan = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('both' as const), from: fc.nat(40), to: fc.nat(40) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('until' as const), to: fc.nat(40) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('since' as const), from: fc.nat(40) }), weight: 1 },
);
type WindowPlan = (typeof windowPlan) extends fc.Arbitrary<infer T> ? T : never;

/** One value per filter: the filters in the spec's form, a map of name to a list of strings. */
type Filters = Partial<Record<FilterName, string>>;

/** Which filters a version has (spec/2 §6 rule 5: label from 1.21, daemon from 1.24) and the world's objects allow (networks from 1.21). */
function filtersAt(version: string, live: boolean): FilterName[] {
  return FILTERS.filter((name) => {
    if ((name === 'label' || name === 'network') && !atLeast(version, '1.21')) return false;
    if (name === 'daemon' && !atLeast(version, '1.24')) return false;
    // before the world is made, container and network ids are not known
    return !(live && (name === 'container' || name === 'network'));
  });
}

function pick<T>(values: T[], index: number): T | undefined {
  return values[index % (values.length + 1)];
}

/** The filter values a plan stands for; `objects` is undefined for the streams opened before the world. */
function resolveFilters(plan: FilterPlan, allowed: FilterName[], known: Known, objects?: WorldObject[]): Filters {
  const filters: Filters = {};
  const of = (kind: Kind) => (objects ?? []).filter((object) => object.kind === kind);
  for (const name of plan.keys.filter((key) => allowed.includes(key))) {
    switch (name) {
      case 'container':
        filters.container = pick(of('container').map((object) => object.id), plan.object) ?? 'f00dfeed'.repeat(8);
        break;
      case 'network':
        filters.network = pick(of('network').map((object) => object.id), plan.object) ?? 'feedf00d'.repeat(8);
        break;
      case 'volume':
        filters.volume = pick(known.volumeNames, plan.object) ?? `${known.labelKeys.none}-novolume`;
        break;
      case 'image':
        filters.image = pick([...known.imageNames, known.fixture], plan.object) ?? `${known.labelKeys.none}-noimage:latest`;
        break;
      case 'label':
        filters.label = `${known.labelKeys[plan.label.slot]}=${plan.label.value}`;
        break;
      case 'event':
        filters.event = plan.event;
        break;
      case 'type':
        filters.type = plan.type;
        break;
      case 'daemon':
        filters.daemon = known.daemon[plan.daemon];
        break;
    }
  }
  return filters;
}

// ---- the oracle: the spec's words over the world ----

/** Whether one filter lets the event through (spec/2 §4.2's filter list, §6's kinds). */
function filterVerdict(event: WorldEvent, name: FilterName, value: string, known: Known): Verdict {
  const { object } = event;
  switch (name) {
    case 'type':
      return event.type === value ? 'yes' : 'no';
    case 'event':
      return event.action === value ? 'yes' : 'no';
    case 'container':
    case 'volume':
    case 'network':
      if (object.kind === name && object.id === value) return 'yes';
      // a connect or disconnect carries the container (rule 1): whether container=<id> takes it in is not said
      return name === 'container' && event.container?.id === value ? 'maybe' : 'no';
    case 'daemon':
      // none of the world's events is a daemon's
      return 'no';
    case 'image':
      if (object.kind === 'image' && object.names.includes(value)) return event.action === 'tag' && event.name === value ? 'yes' : 'maybe';
      // the commit that made the image, and containers of the image named (dockerd's reading): not said
      if (event.action === 'commit' && object.kind === 'container' && (objectImageNames.get(object) ?? []).includes(value)) return 'maybe';
      return object.kind === 'container' && value === known.fixture ? 'maybe' : 'no';
    case 'label': {
      const [key, labelValue] = splitLabel(value);
      const has = (labelled?: WorldObject) => labelled?.labels[key] === labelValue;
      if (object.kind === 'container' || object.kind === 'image') return has(object) ? 'yes' : 'no';
      // "(image and container labels)": a volume's or network's own labels may or may not count
      return has(object) || has(event.container) ? 'maybe' : 'no';
    }
  }
}

/** The names of the image a commit container made, for the image filter's leniency above. */
const objectImageNames = new WeakMap<WorldObject, string[]>();

function splitLabel(label: string): [string, string] {
  const equals = label.indexOf('=');
  return [label.slice(0, equals), label.slice(equals + 1)];
}

interface Window {
  since?: number;
  until?: number;
  /** the stream was opened before the world was made: everything in it happened while it streamed */
  live?: boolean;
}

/**
 * Whether the window takes the event in (rule 4). An event happened in a second from the `lo` to the
 * `hi` read around the step that caused it: in the very second of a bound, either reading of the bound holds.
 */
function timeVerdict(event: WorldEvent, window: Window): Verdict {
  const { seconds } = event;
  const verdicts: Verdict[] = [];
  if (window.since !== undefined) verdicts.push(seconds.lo > window.since ? 'yes' : seconds.hi < window.since ? 'no' : 'maybe');
  if (window.until !== undefined) verdicts.push(seconds.hi < window.until ? 'yes' : seconds.lo > window.until ? 'no' : 'maybe');
  // until without since on a request made after the events: whether anything is replayed is not said
  if (window.since === undefined && !window.live) verdicts.push('maybe');
  return least(...verdicts);
}

function verdictOf(event: WorldEvent, window: Window, filters: Filters, world: World, known: Known): Verdict {
  const filterVerdicts = Object.entries(filters).map(([name, value]) => filterVerdict(event, name as FilterName, value, known));
  return least(event.certain ? 'yes' : 'maybe', timeVerdict(event, window), ...filterVerdicts);
}

/** Events that are about one of an image's names: each name's is judged on its own. */
const NAMED_ACTIONS = new Set(['tag', 'untag']);
/** The name part of the key of an answered tag or untag event that names none of the image's names. */
const NO_NAME = '?';

function keyOf(type: string, action: string, object: WorldObject, name?: string): string {
  return `${object.handle} ${type} ${action}${name === undefined ? '' : ` ${name}`}`;
}

/** The key of an event of the world: a tag or untag event's carries its name. */
function worldKey(event: WorldEvent): string {
  return keyOf(event.type, event.action, event.object, NAMED_ACTIONS.has(event.action) ? event.name : undefined);
}

/** The key without the name of a tag or untag event: what its no-name key shares with the named ones. */
function baseOf(key: string): string {
  return key.split(' ').slice(0, 3).join(' ');
}

/** Per kind of event (object, type, action): how many must come and how many more may. */
function expectedCounts(window: Window, filters: Filters, world: World, known: Known): Map<string, { yes: number; maybe: number }> {
  const counts = new Map<string, { yes: number; maybe: number }>();
  for (const event of world.events) {
    const key = worldKey(event);
    const count = counts.get(key) ?? { yes: 0, maybe: 0 };
    const verdict = verdictOf(event, window, filters, world, known);
    if (verdict === 'yes') count.yes++;
    if (verdict === 'maybe') count.maybe++;
    counts.set(key, count);
  }
  return counts;
}

/** The world object an answered event is about, if any: by its Actor.ID (or legacy id), an image also by a name of its. */
function objectOf(event: EventView, world: World): WorldObject | undefined {
  const actor = event.Actor?.ID ?? event.id ?? '';
  const named = event.Actor?.Attributes?.name;
  return world.objects.find((object) => {
    if (event.Type !== undefined && event.Type !== object.kind) return false;
    if (object.kind !== 'image') return actor === object.id;
    return (actor !== '' && bareImageId(actor) === bareImageId(object.id)) || object.names.includes(actor) || (named !== undefined && object.names.includes(named));
  });
}

/**
 * Which of the image's names an answered tag or untag event names (the Actor's name attribute, or the
 * legacy id or from, as versions give it); undefined when it names none (dockerd's untag gives the id).
 */
function nameOf(event: EventView, object: WorldObject): string | undefined {
  return [event.Actor?.Attributes?.name, event.Actor?.ID, event.id, event.from].find((name) => name !== undefined && object.names.includes(name));
}

/**
 * The answered events of the world, counted per kind (a tag or untag event per name, or under the
 * no-name key when it names none); those of its objects the world does not plan are listed apart.
 */
function answeredCounts(events: EventView[], world: World, planned: Set<string>): { counts: Map<string, number>; unplanned: string[] } {
  const counts = new Map<string, number>();
  const unplanned: string[] = [];
  const plannedBases = new Set([...planned].map(baseOf));
  for (const event of events) {
    const object = objectOf(event, world);
    if (!object) continue;
    const type = event.Type ?? object.kind;
    const action = actionName(event) ?? event.status?.split(':', 1)[0] ?? '?';
    const named = object.kind === 'image' && NAMED_ACTIONS.has(action);
    const key = keyOf(type, action, object, named ? (nameOf(event, object) ?? NO_NAME) : undefined);
    if (planned.has(key) || (named && key.endsWith(` ${NO_NAME}`) && plannedBases.has(baseOf(key)))) counts.set(key, (counts.get(key) ?? 0) + 1);
    else unplanned.push(key);
  }
  return { counts, unplanned };
}

/**
 * The kinds of which fewer came than must (missing), or some came where none may (leaks). A tag or
 * untag event that names none of the image's names (the spec does not say what it carries) may stand
 * for any name's that must come, and leaks only when no name's may come.
 */
function judge(expected: Map<string, { yes: number; maybe: number }>, events: EventView[], world: World): { missing: string[]; leaks: string[]; unplanned: string[] } {
  const { counts, unplanned } = answeredCounts(events, world, new Set(expected.keys()));
  const missing: string[] = [];
  const leaks: string[] = [];
  /** per base of named kinds: the no-name events left to stand in, and the named kinds still short */
  const unnamed = new Map<string, number>();
  for (const [key, got] of counts) if (key.endsWith(` ${NO_NAME}`)) unnamed.set(baseOf(key), got);
  const short = new Map<string, { key: string; got: number; yes: number }[]>();
  for (const [key, { yes, maybe }] of expected) {
    const got = counts.get(key) ?? 0;
    // How often one step's event is sent the spec does not say (dockerd sends a network disconnect twice):
    // what must come must come at least once each, and a kind none of whose events may come must not come.
    if (got < yes) {
      const base = baseOf(key);
      if (unnamed.has(base)) short.set(base, [...(short.get(base) ?? []), { key, got, yes }]);
      else missing.push(`${key}: ${got} came, at least ${yes} must`);
    }
    if (yes + maybe === 0 && got > 0) leaks.push(`${key}: ${got} came, none may`);
  }
  for (const [base, stand] of unnamed) {
    const kinds = [...expected].filter(([key]) => key !== base && baseOf(key) === base);
    if (kinds.every(([, { yes, maybe }]) => yes + maybe === 0)) leaks.push(`${base} naming none of the image's names: ${stand} came, none may`);
    const lacking = (short.get(base) ?? []).reduce((sum, { got, yes }) => sum + yes - got, 0);
    if (lacking > stand) for (const { key, got, yes } of short.get(base) ?? []) missing.push(`${key}: ${got} came (and ${stand} naming none of the image's names, for ${lacking} lacking), at least ${yes} must`);
  }
  return { missing, leaks, unplanned };
}

/** The kinds of which fewer came than must, or some came where none may. */
function mismatches(expected: Map<string, { yes: number; maybe: number }>, events: EventView[], world: World): { wrong: string[]; unplanned: string[] } {
  const { missing, leaks, unplanned } = judge(expected, events, world);
  return { wrong: [...missing, ...leaks], unplanned };
}

/** Whether every event that must come has come (for reading a stream that does not end). */
function allCame(expected: Map<string, { yes: number; maybe: number }>, events: EventView[], world: World): boolean {
  return judge(expected, events, world).missing.length === 0;
}

// ---- making the world ----

function labelsOf(plan: LabelPlan, known: Known): Record<string, string> {
  return Object.fromEntries(Object.entries(plan).map(([slot, value]) => [known.labelKeys[slot as 'a' | 'b'], value]));
}

/** A phase's steps, run in order; each returns the events it causes. */
type Step = () => Promise<void>;

async function buildWorld(context: CheckContext, plan: WorldPlan, known: Known): Promise<World> {
  const { engine, expect, make, session } = context;
  const withNetworks = atLeast(context.version, '1.21');
  const objects: WorldObject[] = [];
  const events: WorldEvent[] = [];
  const steps: Step[][] = [[], []];
  const happen = (phase: number, object: WorldObject, action: string, extra: Partial<WorldEvent> = {}) => {
    events.push({ type: object.kind, action, object, phase, certain: true, seconds: { lo: 0, hi: 0 }, ...extra });
  };
  const step = (phase: number, run: Step) => steps[phase]?.push(run);

  const containers = plan.containers.map((container, index) => {
    const object: WorldObject = { kind: 'container', handle: `c${index}`, id: '', labels: labelsOf(container.labels, known), names: [] };
    objects.push(object);
    step(container.born, async () => {
      object.id = await make.container({ Image: session.fixtureImage, Cmd: container.fate === 'killed' ? ['sleep', '300'] : ['true'], Labels: object.labels });
      happen(container.born, object, 'create');
      if (container.fate === 'created') return;
      await startContainer(context, object.id);
      happen(container.born, object, 'start');
      if (container.fate === 'exited') {
        await exitedState(context, object.id);
        happen(container.born, object, 'die');
      }
    });
    return { object, plan: container };
  });
  const running = containers.find((container) => container.plan.fate === 'killed');

  plan.volumes.forEach((volume, index) => {
    const name = known.volumeNames[index] ?? uniqueVolumeName(context);
    const object: WorldObject = { kind: 'volume', handle: `v${index}`, id: name, labels: labelsOf(volume.labels, known), names: [] };
    objects.push(object);
    step(volume.born, async () => {
      await ownVolume(context, object.labels, name);
      happen(volume.born, object, 'create');
    });
    if (volume.removed) {
      step(1, async () => {
        const res = await engine.delete(`/volumes/${encodeURIComponent(name)}`);
        expect(res.status, `DELETE /volumes/{name} status: ${res.describe()}`).toBe(204);
        happen(1, object, 'destroy');
      });
    }
  });

  const networks = (withNetworks ? plan.networks : []).map((network, index) => {
    const object: WorldObject = { kind: 'network', handle: `n${index}`, id: '', labels: labelsOf(network.labels, known), names: [] };
    objects.push(object);
    step(network.born, async () => {
      object.id = await ownNetwork(context, { Name: make.uniqueName('n'), Labels: object.labels });
      happen(network.born, object, 'create');
    });
    const joined = network.joined ? running : undefined;
    if (joined) {
      step(1, async () => {
        await connected(context, object.id, joined.object.id);
        happen(1, object, 'connect', { container: joined.object });
      });
      step(1, async () => {
        const res = await disconnect(context, object.id, joined.object.id);
        expect(res.status, `POST /networks/{id}/disconnect status: ${res.describe()}`).toBe(200);
        happen(1, object, 'disconnect', { container: joined.object });
      });
    }
    return { object, plan: network };
  });

  // The image: committed from a container of its own (create, commit, destroy), then named.
  const imagePlan = plan.image;
  const imageLabels = labelsOf(imagePlan.labels, known);
  const committer: WorldObject = { kind: 'container', handle: 'committer', id: '', labels: imageLabels, names: [] };
  const image: WorldObject = { kind: 'image', handle: 'image', id: '', labels: imageLabels, names: [] };
  objects.push(committer, image);
  objectImageNames.set(committer, image.names);
  const [firstName, secondName] = known.imageNames as [string, string];
  const tag = async (phase: number, name: string) => {
    const res = await tagImage(context, image.id, name);
    expect(res.status, `POST /images/{id}/tag status: ${res.describe()}`).toBe(201);
    image.names.push(name);
    happen(phase, image, 'tag', { name });
  };
  step(imagePlan.born, async () => {
    committer.id = await make.container({ Image: session.fixtureImage, Cmd: ['true'], Labels: imageLabels });
    happen(imagePlan.born, committer, 'create');
    const res = await commit(context, committer.id, { config: { Labels: imageLabels } });
    expect(res.status, `POST /commit status: ${res.describe()}`).toBe(201);
    image.id = res.json<{ Id: string }>().Id;
    happen(imagePlan.born, committer, 'commit');
    const removal = await engine.delete(`/containers/${committer.id}`);
    expect(removal.status, `DELETE /containers/{id} status (the committed container): ${removal.describe()}`).toBe(204);
    happen(imagePlan.born, committer, 'destroy');
    await tag(imagePlan.born, firstName);
  });
  if (imagePlan.secondName) step(1, () => tag(1, secondName));
  const untagged = imagePlan.untag === 'none' ? [] : imagePlan.untag === 'first' || !imagePlan.secondName ? [firstName] : [firstName, secondName];
  if (untagged.length > 0) {
    step(1, async () => {
      for (const name of untagged) {
        const res = await removeImage(context, name);
        expect(res.status, `DELETE /images/{name} status: ${res.describe()}`).toBe(200);
        // rule 3: "Removing an image name emits untag" (which name the event gives is not said)
        happen(1, image, 'untag', { name });
      }
      // rule 3: deleting the last name "may also emit delete"
      if (image.names.every((name) => untagged.includes(name))) events.push({ type: 'image', action: 'delete', object: image, phase: 1, certain: false, seconds: { lo: 0, hi: 0 } });
    });
  }

  // Phase 1 goes on: off the networks, the running ones killed, then removals.
  for (const { object, plan: container } of containers) {
    if (container.fate === 'killed') {
      step(1, async () => {
        const res = await engine.post(`/containers/${object.id}/kill`);
        expect(res.status, `POST /containers/{id}/kill status: ${res.describe()}`).toBe(204);
        happen(1, object, 'kill');
        await exitedState(context, object.id);
        happen(1, object, 'die');
      });
    }
    if (container.removed) {
      step(1, async () => {
        const res = await engine.delete(`/containers/${object.id}`);
        expect(res.status, `DELETE /containers/{id} status: ${res.describe()}`).toBe(204);
        happen(1, object, 'destroy');
      });
    }
  }
  for (const { object, plan: network } of networks) {
    if (!network.removed) continue;
    step(1, async () => {
      const res = await engine.delete(`/networks/${object.id}`);
      // 204, 200 at 1.21 (spec/2 §4.4)
      expect([200, 204], `DELETE /networks/{id} status: ${res.describe()}`).toContain(res.status);
      happen(1, object, 'destroy');
    });
  }

  const start = await daemonSeconds(context);
  const phases: World['phases'] = [];
  for (const [index, phaseSteps] of steps.entries()) {
    if (index > 0) await secondPassed(context);
    const first = await daemonSeconds(context);
    let lo = first;
    for (const run of phaseSteps) {
      const from = events.length;
      await run();
      const hi = await daemonSeconds(context);
      for (const event of events.slice(from)) event.seconds = { lo, hi };
      lo = hi;
    }
    phases.push({ lo: first, hi: lo });
  }
  const end = await secondPassed(context);
  return { objects, events, phases, start, end };
}

// ---- reading answers ----

async function readWindow(context: CheckContext, window: Window, filters: Filters, expected: Map<string, { yes: number; maybe: number }>, world: World): Promise<{ events: EventView[]; ended: boolean; status: number }> {
  const query: Record<string, string | number> = { filters: JSON.stringify(Object.fromEntries(Object.entries(filters).map(([name, value]) => [name, [value]]))) };
  if (window.since !== undefined) query.since = window.since;
  if (window.until !== undefined) query.until = window.until;
  const stream = await openStream(context.engine, context.session.target.connection, '/events', query);
  try {
    if (stream.status !== 200) return { events: [], ended: true, status: stream.status };
    if (window.until !== undefined) {
      const ended = await stream.endsWithin(STREAM_MS);
      return { events: stream.jsonObjects<EventView>(), ended, status: 200 };
    }
    // since alone streams on: read until what must come has come, then a little more
    await stream.waitFor(() => allCame(expected, receivedEvents(stream), world), STREAM_MS);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return { events: stream.jsonObjects<EventView>(), ended: stream.ended, status: 200 };
  } finally {
    stream.close();
  }
}

function describeWorld(world: World): string {
  const events = world.events.map((event) => `${event.seconds.lo}-${event.seconds.hi % 100}:${keyOf(event.type, event.action, event.object)}${event.name ? `(${event.name})` : ''}${event.certain ? '' : '?'}`);
  const labels = world.objects.map((object) => `${object.handle}${JSON.stringify(object.labels)}`);
  return `phases ${JSON.stringify(world.phases)}, end ${world.end}; objects ${labels.join(' ')}; events ${events.join(' ')}`;
}

interface LiveStream {
  filters: Filters;
  until: number;
  stream: StreamedResponse;
}

check('events.query.property-windows-filters', {
  title: 'over a random world of containers, volumes, networks and an image with random labels, GET /events with random since and until (alone and together) and filters (alone and together) carries every event the spec says it must and none it must not',
  spec: '2 §4.2, §6',
  quote: [
    '| GET /events | since (timestamp; show events since then and keep streaming), until (timestamp; stop after), filters | none | 200 `application/json`, chunked stream of events | 200, 500 |',
    'Event filters: container=<string>, event=<string>, image=<string>, label=<string> (image and container labels), type=<string> (container, image, volume, network or daemon), volume=<string>, network=<string>, daemon=<string> (name or id).',
    'GET /events streams events as they occur.',
    '| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |',
    '| image | delete, import, load, pull, push, save, tag, untag |',
    '| volume | create, mount, unmount, destroy |',
    '| network | create, connect, disconnect, destroy |',
    'Removing an image name emits untag. Deleting images by id, or deleting the last tag that refers to an image, may also emit delete.',
    'With since, events created since that timestamp are sent first, then the stream continues; with until, streaming stops at that timestamp.',
    'filtering by daemon name or id exists from 1.24',
    'filtering by image and container labels from 1.21',
  ],
  since: '1.18',
  tags: ['stream', 'property'],
  timeoutMs: 45_000,
  covers: [
    '2:GET /events:query:since',
    '2:GET /events:query:until',
    '2:GET /events:query:filters.container',
    '2:GET /events:query:filters.event',
    '2:GET /events:query:filters.image',
    '2:GET /events:query:filters.label',
    '2:GET /events:query:filters.type',
    '2:GET /events:query:filters.volume',
    '2:GET /events:query:filters.network',
    '2:GET /events:query:filters.daemon',
    '2:version-rule:1.21:events-label-filter',
    '2:version-rule:1.24:events-daemon-filter',
  ],
}, async (context) => {
  const { engine, expect, make, session, version } = context;
  const [plan] = fc.sample(worldPlan, { seed: session.seed, numRuns: 1 });
  const liveFilters = fc.sample(filterPlan, { seed: session.seed + 1, numRuns: 3 });
  if (!plan) throw new Error('no world sampled');
  const info = await engine.get('/info');
  expect(info.status, 'GET /info status').toBe(200);
  const { ID, Name } = info.json<{ ID: string; Name: string }>();
  const known: Known = {
    labelKeys: { a: make.uniqueName('la'), b: make.uniqueName('lb'), none: make.uniqueName('lz') },
    volumeNames: plan.volumes.map(() => uniqueVolumeName(context)),
    imageNames: [uniqueImageName(context, 'ia'), uniqueImageName(context, 'ib')],
    fixture: session.fixtureImage,
    daemon: { id: ID, name: Name },
  };

  // Opened before anything is made: a record of every event (since the present second, no filter),
  // and streams with until alone (the next second) and filters drawn with the world.
  const now = await daemonSeconds(context);
  const liveUntil = now + 1;
  const live: LiveStream[] = [];
  const openedAt = Date.now();
  const record = await openStream(engine, session.target.connection, '/events', { since: now });
  /** how long after it was opened the record stream ended, by the target's doing or the request deadline */
  let recordEndedAfter: number | undefined;
  void record.endsWithin(REQUEST_DEADLINE_MS + STREAM_MS).then((ended) => {
    if (ended) recordEndedAfter ??= Date.now() - openedAt;
  });
  try {
    expect(record.status, `GET /events?since=${now} status`).toBe(200);
    for (const filterChoice of liveFilters) {
      const filters = resolveFilters(filterChoice, filtersAt(version, true), known);
      const query = { until: liveUntil, filters: JSON.stringify(Object.fromEntries(Object.entries(filters).map(([name, value]) => [name, [value]]))) };
      const stream = await openStream(engine, session.target.connection, '/events', query);
      live.push({ filters, until: liveUntil, stream });
      expect(stream.status, `GET /events?until=${liveUntil} status`).toBe(200);
    }
    const world = await buildWorld(context, plan, known);
    const described = describeWorld(world);

    // Everything the world's steps cause, read as it happened: what the model plans must all have come.
    const everything = expectedCounts({ live: true }, {}, world, known);
    await record.waitFor(() => allCame(everything, receivedEvents(record), world), STREAM_MS);
    const recorded = record.jsonObjects<EventView>();
    // A stream without until must go on (spec/2 §4.2: "show events since then and keep streaming"): one that
    // ends before the client's request deadline was ended by the target; only the deadline is not the target's
    // answer (the world took too long to make).
    const endedAfter = record.ended ? (recordEndedAfter ?? Date.now() - openedAt) : undefined;
    if (endedAfter !== undefined && endedAfter >= REQUEST_DEADLINE_MS) throw new Error(`the stream with since=${now} ended ${endedAfter} ms after it was opened, while the world was made: the request deadline (${REQUEST_DEADLINE_MS} ms) cut it, the target is too slow for this check`);
    const planned = mismatches(everything, recorded, world);
    const recordSeen = { endedByTarget: endedAfter !== undefined, wrong: planned.wrong };
    const endNote = endedAfter === undefined ? 'still open' : `ended by the target ${endedAfter} ms after it was opened, before the request deadline (spec/2 §4.2: since "show events since then and keep streaming")`;
    expect(recordSeen, `the events of the world on the stream with since=${now} and no filter, opened before it was made (${endNote}): ${JSON.stringify(planned.wrong)} (${described}; events of the world not planned: ${JSON.stringify(planned.unplanned)})`).toEqual({ endedByTarget: false, wrong: [] });
    record.close();

    /**
     * What the stream opened before the world was made carried and GET /events with since (before the
     * world) and until (after it), no filter, does not replay: spec/2 §6 rule 4 ("With since, events created
     * since that timestamp are sent first") bounds no history, so all of it must come again. Asked when a
     * case lacks events, to name what is missing from the daemon's replay at all.
     */
    const replayLacks = async (): Promise<{ status: number; ended: boolean; lacking: string[] }> => {
      const probe = await openStream(engine, session.target.connection, '/events', { since: world.start - 1, until: world.end });
      try {
        if (probe.status !== 200) return { status: probe.status, ended: true, lacking: [] };
        const ended = await probe.endsWithin(STREAM_MS);
        const keys = new Set(everything.keys());
        const kept = answeredCounts(probe.jsonObjects<EventView>(), world, keys).counts;
        const seen = answeredCounts(recorded, world, keys).counts;
        const lacking = [...seen].filter(([key, count]) => (kept.get(key) ?? 0) < count).map(([key, count]) => `${key}: ${kept.get(key) ?? 0} replayed, ${count} streamed as it happened`);
        return { status: 200, ended, lacking };
      } finally {
        probe.close();
      }
    };

    for (const { filters, until, stream } of live) {
      const ended = await stream.endsWithin(STREAM_MS);
      const window: Window = { until, live: true };
      const { wrong, unplanned } = mismatches(expectedCounts(window, filters, world, known), stream.jsonObjects<EventView>(), world);
      expect({ ended, wrong }, `the stream with until=${until} alone and filters ${JSON.stringify(filters)}, opened before the world was made: ${JSON.stringify({ ended, wrong })} (${described}; events of the world not planned: ${JSON.stringify(unplanned)})`).toEqual({ ended: true, wrong: [] });
    }

    const allowed = filtersAt(version, false);
    const seconds = world.end - world.start + 2;
    const windowOf = (choice: WindowPlan): Window => {
      const at = (offset: number) => world.start - 1 + (offset % seconds);
      if (choice.kind === 'since') return { since: at(choice.from) };
      if (choice.kind === 'until') return { until: at(choice.to) };
      const [since, until] = [at(choice.from), at(choice.to)].sort((a, b) => a - b) as [number, number];
      return { since, until };
    };
    await assertProperty(context, fc.asyncProperty(windowPlan, filterPlan, async (windowChoice, filterChoice) => {
      const window = windowOf(windowChoice);
      const filters = resolveFilters(filterChoice, allowed, known, world.objects);
      const expected = expectedCounts(window, filters, world, known);
      const answer = await readWindow(context, window, filters, expected, world);
      const { missing, leaks, unplanned } = judge(expected, answer.events, world);
      // with until (passed), the stream ends; with since alone, it goes on
      const shouldEnd = window.until !== undefined;
      const asked = `GET /events with ${JSON.stringify(window)} and filters ${JSON.stringify(filters)}`;
      const around = `(${described}; events of the world not planned: ${JSON.stringify(unplanned)})`;
      // The case's own answer first: its status, its end, and what came where none may.
      const seen = { status: answer.status, ended: answer.ended, leaks };
      expect(seen, `${asked}: ${JSON.stringify(seen)}, missing ${JSON.stringify(missing)} ${around}`).toEqual({ status: 200, ended: shouldEnd, leaks: [] });
      if (missing.length > 0) {
        // Missing events: does the daemon replay the world's events at all?
        const replay = await replayLacks();
        expect(replay, `${asked} lacks ${JSON.stringify(missing)}; GET /events?since=${world.start - 1}&until=${world.end} with no filter does not replay all the world's events either (it must end and carry what the stream opened before the world carried; spec/2 §6 rule 4: "With since, events created since that timestamp are sent first", and the spec bounds no history): ${JSON.stringify(replay)}. Hint: dockerd keeps only its last 256 events, so a busy daemon can turn its history over ${around}`).toEqual({ status: 200, ended: true, lacking: [] });
      }
      expect(missing, `${asked}: missing ${JSON.stringify(missing)} ${around}`).toEqual([]);
    }), RUNS);
  } finally {
    record.close();
    for (const { stream } of live) stream.close();
  }
});
