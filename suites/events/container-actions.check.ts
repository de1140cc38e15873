/**
 * One check per container action of the spec/2 §6 table that an API client can cause: the operation
 * emits a container event whose actor is the container and whose attributes carry the image name,
 * the container's name and its labels (rule 1), plus what the action adds (exitCode on die; rule 1
 * does not say whether a rename event names the container by its new name or its old one: either).
 * Rule 1 names no keys for the image and the name, so the spec-level checks look for them among the
 * values (the name with or without its `/`); the labels are entries of the map. dockerd's keys (`image`, `name` without the slash) are `events.container.attribute-keys`;
 * what dockerd adds besides (execID on the exec actions, signal on kill, oldName on rename, the
 * comment and image on commit) is asserted by docker-level checks of their own. Actions the spec
 * gives no request for are docker-level: `detach` (the spec names no detach keys for an attach) and
 * `update` (its body and answer are "not shown"); `exec_detach` is spec-level from 1.25, where the exec
 * body names its DetachKeys. `oom` is left out: no request makes a kernel kill a process reliably.
 * `resize` is `containers.resize.event`.
 */
import { check, type CheckContext, type CheckTag } from '../../harness/check.ts';
import { RUN_LABEL } from '../../harness/resources.ts';
import type { ApiVersion } from '../../protocol/versions.ts';
import { pauseContainer, startContainer } from '../container-steps.ts';
import { actionName, eventsDuring, type EventView } from '../daemon-events.ts';
import { commit } from '../image-steps.ts';

/** The container an action is done to: made before the stream opens, but for `create`, which makes it. */
interface Subject {
  id: string;
  name: string;
}

interface ContainerAction {
  action: string;
  title: string;
  since: ApiVersion;
  until?: ApiVersion;
  /** the spec sentences the row rests on (spec/2 §6, §2.9); a docker-level row has none */
  quote?: string[];
  /** a row whose cause the spec gives no request for: the check pins dockerd */
  dockerLevel?: true;
  /** inventory ids the row covers besides the event stream itself */
  covers?: string[];
  /** what the container runs and how; `undefined`: the cause creates it */
  setup?: { config: Record<string, unknown>; running: boolean };
  /** the request(s) that cause the event; returns the attributes the action adds or changes */
  cause: (context: CheckContext, subject: Subject) => Promise<Record<string, string>>;
  /**
   * Which of those attributes are dockerd's, not rule 1's: they are asserted by a docker-level check
   * of their own, `events.container.<action>-<docker.id>`.
   */
  docker?: { id: string; attributes: string[]; title: string };
}

const CTRL_P_CTRL_Q = Buffer.from([0x10, 0x11]);
/** The exec's own detach keys (spec/1 §2.5 DetachKeys, 1.25), written as spec/1 §4.1 writes detachKeys. */
const EXEC_DETACH_KEYS = 'ctrl-x';
const CTRL_X = Buffer.from([0x18]);
const WAIT_MS = 10_000;
const SLEEPING = { config: { Cmd: ['sleep', '300'] }, running: true };
const CREATED = { config: { Cmd: ['true'] }, running: false };
/** `cat` on a Tty with stdin open: it answers what it is sent, and a client can detach from it. */
const INTERACTIVE = { config: { Cmd: ['cat'], OpenStdin: true, Tty: true }, running: true };

function expectStatus(context: CheckContext, what: string, status: number, expected: number): void {
  context.expect(status, `${what} status`).toBe(expected);
}

async function execInstance(context: CheckContext, id: string, body: Record<string, unknown>): Promise<string> {
  const res = await context.engine.post(`/containers/${id}/exec`, { json: body });
  expectStatus(context, 'POST /containers/{id}/exec', res.status, 201);
  return res.json<{ Id: string }>().Id;
}

/** Attaches with stdin, waits for the echo that shows it is wired, sends the detach keys and waits for the end. */
async function detachFrom(context: CheckContext, path: string, options: { json?: unknown; query?: Record<string, number> }, keys: Buffer): Promise<void> {
  const stream = await context.engine.hijack(path, options);
  try {
    await stream.write('hello\n');
    await stream.readUntil((received) => received.includes('hello'), WAIT_MS);
    await stream.write(keys);
    // Whether the daemon ended the session is the detach checks' business; here only the event counts.
    await stream.endsWithin(WAIT_MS);
  } finally {
    stream.close();
  }
}

const ACTIONS: ContainerAction[] = [
  {
    action: 'create',
    title: 'creating a container emits create',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    cause: async (context, subject) => {
      subject.id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] }, subject.name);
      return {};
    },
  },
  {
    action: 'start',
    title: 'starting a container emits start',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    setup: CREATED,
    cause: async (context, { id }) => {
      await startContainer(context, id);
      return {};
    },
  },
  {
    action: 'die',
    title: 'a container whose process ends emits die with its exit code as the string attribute exitCode',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    setup: { config: { Cmd: ['sh', '-c', 'exit 3'] }, running: false },
    cause: async (context, { id }) => {
      await startContainer(context, id);
      return { exitCode: '3' };
    },
  },
  {
    action: 'destroy',
    title: 'removing a container emits destroy',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    setup: CREATED,
    cause: async (context, { id }) => {
      expectStatus(context, 'DELETE /containers/{id}', (await context.engine.delete(`/containers/${id}`)).status, 204);
      return {};
    },
  },
  {
    action: 'attach',
    title: 'attaching to a running container (stream=1) emits attach',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    setup: SLEEPING,
    cause: async (context, { id }) => {
      // stream=1: an attach proper (spec/1 §4.1: with logs=1 alone the call returns the log, no attach).
      const stream = await context.engine.hijack(`/containers/${id}/attach`, { query: { stream: 1, stdout: 1 } });
      stream.close();
      return {};
    },
  },
  {
    action: 'detach',
    title: 'a client detaching from an attached container with ctrl-p ctrl-q emits detach',
    dockerLevel: true,
    since: '1.24',
    covers: ['2:version-rule:1.24:events-reload-detach-exec-detach'],
    setup: INTERACTIVE,
    cause: async (context, { id }) => {
      await detachFrom(context, `/containers/${id}/attach`, { query: { stream: 1, stdin: 1, stdout: 1 } }, CTRL_P_CTRL_Q);
      return {};
    },
  },
  {
    action: 'commit',
    title: 'committing a container emits commit',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    docker: { id: 'comment-image-id', attributes: ['comment', 'imageID'], title: 'the commit event carries the comment and the new image id as imageID' },
    setup: CREATED,
    cause: async (context, { id }) => {
      const res = await commit(context, id, { query: { comment: 'shipshape' } });
      expectStatus(context, 'POST /commit', res.status, 201);
      return { comment: 'shipshape', imageID: res.json<{ Id: string }>().Id };
    },
  },
  {
    action: 'copy',
    title: 'POST /containers/{id}/copy (gone from 1.24) emits copy',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    until: '1.23',
    setup: CREATED,
    cause: async (context, { id }) => {
      const res = await context.engine.post(`/containers/${id}/copy`, { json: { Resource: '/bin/sh' } });
      expectStatus(context, 'POST /containers/{id}/copy', res.status, 200);
      return {};
    },
  },
  {
    action: 'export',
    title: 'exporting a container emits export',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'export (emitted by the export operation)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    setup: CREATED,
    cause: async (context, { id }) => {
      expectStatus(context, 'GET /containers/{id}/export', (await context.engine.get(`/containers/${id}/export`)).status, 200);
      return {};
    },
  },
  {
    action: 'exec_create',
    title: 'creating an exec instance emits exec_create (followed by the command)',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'exec_create (emitted when an exec instance is created)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    docker: { id: 'exec-id', attributes: ['execID'], title: 'the exec_create event carries the exec instance id as execID' },
    setup: SLEEPING,
    cause: async (context, { id }) => ({ execID: await execInstance(context, id, { Cmd: ['true'] }) }),
  },
  {
    action: 'exec_start',
    title: 'starting an exec instance emits exec_start (followed by the command)',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'exec_start (emitted by exec start after exec_create)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    docker: { id: 'exec-id', attributes: ['execID'], title: 'the exec_start event carries the exec instance id as execID' },
    setup: SLEEPING,
    cause: async (context, { id }) => {
      const execID = await execInstance(context, id, { Cmd: ['true'] });
      const res = await context.engine.post(`/exec/${execID}/start`, { json: { Detach: true, Tty: false } });
      expectStatus(context, 'POST /exec/{id}/start (Detach)', res.status, 200);
      return { execID };
    },
  },
  {
    action: 'exec_detach',
    title: 'from 1.25, a client detaching from an exec session with the DetachKeys of its exec (ctrl-x) emits exec_detach',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'exec_detach (a client detaches from the exec process)', 'Actions reload (daemon), detach and exec_detach exist from 1.24', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.25',
    covers: ['2:version-rule:1.24:events-reload-detach-exec-detach'],
    setup: SLEEPING,
    cause: async (context, { id }) => {
      const execID = await execInstance(context, id, { Cmd: ['cat'], AttachStdin: true, AttachStdout: true, Tty: true, DetachKeys: EXEC_DETACH_KEYS });
      await detachFrom(context, `/exec/${execID}/start`, { json: { Detach: false, Tty: true } }, CTRL_X);
      return {};
    },
  },
  {
    action: 'kill',
    title: 'killing a container emits kill',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    docker: { id: 'signal', attributes: ['signal'], title: 'the kill event carries the signal number as the string attribute signal' },
    setup: SLEEPING,
    cause: async (context, { id }) => {
      expectStatus(context, 'POST /containers/{id}/kill', (await context.engine.post(`/containers/${id}/kill`)).status, 204);
      return { signal: '9' };
    },
  },
  {
    action: 'pause',
    title: 'pausing a container emits pause',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    setup: SLEEPING,
    cause: async (context, { id }) => {
      await pauseContainer(context, id);
      return {};
    },
  },
  {
    action: 'unpause',
    title: 'unpausing a container emits unpause',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    setup: SLEEPING,
    cause: async (context, { id }) => {
      await pauseContainer(context, id);
      expectStatus(context, 'POST /containers/{id}/unpause', (await context.engine.post(`/containers/${id}/unpause`)).status, 204);
      return {};
    },
  },
  {
    action: 'rename',
    title: 'renaming a container emits rename, naming the container by its new name or its old one',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    docker: { id: 'old-name', attributes: ['oldName'], title: 'the rename event carries the old name, with its slash, as oldName' },
    setup: CREATED,
    cause: async (context, { id, name }) => {
      const renamed = context.make.uniqueName('renamed');
      const res = await context.engine.post(`/containers/${id}/rename`, { query: { name: renamed } });
      expectStatus(context, 'POST /containers/{id}/rename', res.status, 204);
      return { name: renamed, oldName: `/${name}` };
    },
  },
  {
    action: 'restart',
    title: 'restarting a container emits restart',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    setup: SLEEPING,
    cause: async (context, { id }) => {
      expectStatus(context, 'POST /containers/{id}/restart', (await context.engine.post(`/containers/${id}/restart`, { query: { t: 0 } })).status, 204);
      return {};
    },
  },
  {
    action: 'stop',
    title: 'stopping a container emits stop',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    setup: SLEEPING,
    cause: async (context, { id }) => {
      expectStatus(context, 'POST /containers/{id}/stop', (await context.engine.post(`/containers/${id}/stop`, { query: { t: 0 } })).status, 204);
      return {};
    },
  },
  {
    action: 'top',
    title: 'listing the processes of a container emits top',
    quote: ['| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Container events carry Actor.Attributes with the image name, the container name and the container labels; a die event adds exitCode (string)', 'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}'],
    since: '1.18',
    setup: SLEEPING,
    cause: async (context, { id }) => {
      expectStatus(context, 'GET /containers/{id}/top', (await context.engine.get(`/containers/${id}/top`)).status, 200);
      return {};
    },
  },
  {
    action: 'update',
    title: 'updating a container emits update',
    dockerLevel: true,
    since: '1.22',
    setup: SLEEPING,
    cause: async (context, { id }) => {
      const res = await context.engine.post(`/containers/${id}/update`, { json: { CpuShares: 512 } });
      expectStatus(context, 'POST /containers/{id}/update', res.status, 200);
      return {};
    },
  },
];

function summary(events: EventView[]): string {
  return JSON.stringify(events.map((event) => event.Action));
}

/**
 * What rule 1 gives every container event, judged on its attributes: the image name and the
 * container's name among the values (rule 1 names no keys; the name with or without the `/` every
 * container name starts with, spec/1 §2.2), the labels as entries, and the attributes the action adds
 * (`name`: the container's name after the action; the name it had before is taken too, for rule 1
 * does not say which name a rename event carries).
 */
function ruleOneReading({ make, session }: CheckContext, subject: Subject, added: Record<string, string>, attributes: Record<string, string> | undefined): Record<string, unknown> {
  const values = Object.values(attributes ?? {});
  const { name = subject.name, ...named } = added;
  return {
    'the image name among the values': values.includes(session.fixtureImage),
    'the container name among the values': [name, subject.name].some((candidate) => values.includes(candidate) || values.includes(`/${candidate}`)),
    [`the label ${RUN_LABEL}`]: attributes?.[RUN_LABEL] === make.runId,
    ...Object.fromEntries(Object.entries(named).map(([key, value]) => [key, attributes?.[key] === value])),
  };
}

/** Runs the row's action with a container event stream open; returns the event of the action, asserted to have come with the container as actor. */
async function actionEvent(context: CheckContext, row: ContainerAction): Promise<{ subject: Subject; event?: EventView; added: Record<string, string> }> {
  const { expect, make, session } = context;
  const subject: Subject = { id: '', name: make.uniqueName('c') };
  if (row.setup) {
    subject.id = await make.container({ Image: session.fixtureImage, ...row.setup.config }, subject.name);
    if (row.setup.running) await startContainer(context, subject.id);
  }
  let added: Record<string, string> = {};
  // Filtered by id, which a rename does not change; before the container exists (create) by type only,
  // and its event picked by its actor once the id is known.
  const ofSubject = (event: EventView) => actionName(event) === row.action && (row.setup !== undefined || event.Actor?.ID === subject.id);
  const events = await eventsDuring(context, { type: ['container'], ...(subject.id && { container: [subject.id] }) }, async () => {
    added = await row.cause(context, subject);
  }, ofSubject);
  const event = events.find(ofSubject);
  expect(event, `a ${row.action} event of container ${subject.name} within ${WAIT_MS} ms (events that came: ${summary(events.filter((candidate) => row.setup !== undefined || candidate.Actor?.ID === subject.id))})`).toBeDefined();
  expect({ Type: event?.Type, ID: event?.Actor?.ID }, `type and actor of the ${row.action} event`).toEqual({ Type: 'container', ID: subject.id });
  return { subject, event, added };
}

for (const row of ACTIONS) {
  const meta = {
    spec: '2 §6, §2.9',
    since: row.since,
    ...(row.until && { until: row.until }),
    tags: ['stream', 'state'] as CheckTag[],
  };
  const id = `events.container.${row.action.replaceAll('_', '-')}`;
  const level = row.dockerLevel ? { level: 'docker' as const, seen: 'dockerd 20.10.24' } : { quote: row.quote };
  check(id, {
    ...meta,
    ...level,
    title: `${row.title}, with the container as actor and its image, name and labels as attributes`,
    covers: ['2:GET /events', '2:GET /events:query:since', '2:GET /events:query:filters.type', '2:GET /events:query:filters.container', ...(row.covers ?? [])],
  }, async (context) => {
    const { subject, event, added } = await actionEvent(context, row);
    const ruleOne = Object.fromEntries(Object.entries(added).filter(([key]) => !row.docker?.attributes.includes(key)));
    const reading = ruleOneReading(context, subject, ruleOne, event?.Actor?.Attributes);
    context.expect(reading, `attributes of the ${row.action} event: ${JSON.stringify(event?.Actor?.Attributes)}`).toEqual(Object.fromEntries(Object.keys(reading).map((key) => [key, true])));
  });
  if (row.docker) {
    const { attributes } = row.docker;
    check(`${id}-${row.docker.id}`, { ...meta, title: row.docker.title, level: 'docker', seen: 'dockerd 20.10.24' }, async (context) => {
      const { event, added } = await actionEvent(context, row);
      const docker = Object.fromEntries(Object.entries(added).filter(([key]) => attributes.includes(key)));
      context.expect(event?.Actor?.Attributes, `attributes of the ${row.action} event`).toMatchObject(docker);
    });
  }
}

const CREATE = ACTIONS.find((row) => row.action === 'create') as ContainerAction;

check('events.container.attribute-keys', {
  title: 'a container event carries the image name as `image` and the container name, without its slash, as `name` (as dockerd)',
  spec: '2 §6',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream', 'state'],
}, async (context) => {
  const { subject, event } = await actionEvent(context, CREATE);
  context.expect(event?.Actor?.Attributes, 'attributes of the create event').toMatchObject({ image: context.session.fixtureImage, name: subject.name });
});
