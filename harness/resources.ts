/**
 * Everything a check creates on a target is labelled with the run id (or named with its prefix where
 * labels don't exist) and removed when the check ends, whatever the outcome: a run leaves a live
 * daemon exactly as it found it. `shipshape cleanup` removes what a crashed run left.
 */
import { randomBytes } from 'node:crypto';
import type { EngineClient } from './client/engine-client.ts';
import { retriedOnServerError, until } from './wait-until.ts';

export const RUN_LABEL = 'shipshape.run';
export const NAME_PREFIX = 'shipshape-';

/** What every run's names start with: the prefix and a run id of {@link newRunId}'s form. */
const ANY_RUN_NAME = /^shipshape-[0-9a-f]{8}-/;

/** A run's id: eight hex digits, so that names of any run can be told from other `shipshape-` names. */
export function newRunId(): string {
  return randomBytes(4).toString('hex');
}

/**
 * Whether a name (an image's `repository:tag`, a volume's, a network's, a plugin's) is one a run gave: `runId`'s run, or any
 * run's. Image repository names must be lowercase, and {@link ResourceTracker.uniqueName} gives
 * lowercase names when its hint is.
 */
export function isRunName(name: string, runId?: string): boolean {
  return runId === undefined ? ANY_RUN_NAME.test(name) : name.startsWith(`${NAME_PREFIX}${runId}-`);
}

type Remover = () => Promise<void>;

/** The reason clean-up requests carry in the exchange log. */
export const CLEAN_UP = 'clean-up';

export class ResourceTracker {
  private readonly removers: { what: string; remove: Remover }[] = [];
  /** removal goes unprefixed: it bears on no verdict, and every version's objects go the same way */
  private readonly cleanupEngine: EngineClient;

  /** `engine` is the check's, at the version under test: what the tracker makes is made there. */
  constructor(
    private readonly engine: EngineClient,
    readonly runId: string,
  ) {
    this.cleanupEngine = engine.unversioned(CLEAN_UP);
  }

  /**
   * A name unique to this run and check, recognisable by `shipshape cleanup`. Six random bytes: a whole
   * run makes thousands of names in several worker processes, and with three a name once met one still
   * in use (a setup error, "already in use", in CI's reference run).
   */
  uniqueName(hint = 'x'): string {
    return `${NAME_PREFIX}${this.runId}-${hint}-${randomBytes(6).toString('hex')}`;
  }

  get labels(): Record<string, string> {
    return { [RUN_LABEL]: this.runId };
  }

  track(what: string, remove: Remover): void {
    this.removers.push({ what, remove });
  }

  /** Creates a container (labelled, uniquely named) and schedules its forced removal. Returns its id. */
  async container(config: Record<string, unknown>, name = this.uniqueName('c')): Promise<string> {
    const labels = { ...(config.Labels as Record<string, string> | undefined), ...this.labels };
    const res = await this.engine.post('/containers/create', { query: { name }, json: { ...config, Labels: labels } });
    if (res.status !== 201) throw new Error(`setup: could not create a container: ${res.describe()}`);
    const { Id } = res.json<{ Id: string }>();
    this.track(`container ${name}`, () => removeContainer(this.cleanupEngine, Id));
    return Id;
  }

  /**
   * Schedules the removal of a name this check gave an image it did not create (a tag on the fixture
   * image): only the name goes, never the image.
   */
  tag(name: string): void {
    this.track(`image name ${name}`, async () => {
      const res = await this.cleanupEngine.delete(`/images/${encodeURIComponent(name)}`);
      if (res.status !== 200 && res.status !== 404) throw new Error(res.describe());
    });
  }

  /**
   * Schedules the forced removal of an image this check created (commit, import, load), by id: its
   * names go with it, and so do the untagged parents only it kept. Never give it the fixture image.
   */
  image(id: string): void {
    this.track(`image ${id}`, async () => {
      // The digest form: Podman 4.3 answers 500, not 404, for a bare 64-hex id it does not have.
      const digest = /^[0-9a-f]{64}$/.test(id) ? `sha256:${id}` : id;
      const res = await this.cleanupEngine.delete(`/images/${encodeURIComponent(digest)}`, { query: { force: 1 } });
      if (res.status !== 200 && res.status !== 404) throw new Error(res.describe());
    });
  }

  /**
   * Schedules the removal of a volume by name, refused by no one once the check's containers are
   * gone: track it before the containers that use it (removal runs in reverse), also a volume a
   * container's bind creates.
   */
  volume(name: string): void {
    this.track(`volume ${name}`, async () => {
      const res = await this.cleanupEngine.delete(`/volumes/${encodeURIComponent(name)}`);
      if (res.status !== 204 && res.status !== 404) throw new Error(res.describe());
    });
  }

  /**
   * Schedules the removal of a network by id. Whatever is still on it is disconnected first (dockerd
   * refuses to remove a network with endpoints): track a network before the containers that join it.
   */
  network(id: string): void {
    this.track(`network ${id.slice(0, 12)}`, async () => {
      // Podman 4.3 answers 500 to every network read while another check's container is half-joined
      // (a refused connect leaves one until that check takes it off): such an answer is waited out.
      const inspected = await until(() => this.cleanupEngine.get(`/networks/${id}`), (res) => res.status < 500, { timeoutMs: 10_000, intervalMs: 250, what: `GET /networks/${id} to answer other than 5xx` }).catch(() => this.cleanupEngine.get(`/networks/${id}`));
      if (inspected.status === 404) return;
      if (inspected.status !== 200) throw new Error(inspected.describe());
      for (const container of Object.keys(inspected.json<{ Containers?: Record<string, unknown> | null }>().Containers ?? {})) {
        await this.cleanupEngine.post(`/networks/${id}/disconnect`, { json: { Container: container, Force: true } });
      }
      const res = await this.cleanupEngine.delete(`/networks/${id}`);
      if (res.status !== 204 && res.status !== 404) throw new Error(res.describe());
    });
  }

  /**
   * Schedules the forced removal of a plugin by name (plugins have no labels: the name is the run's),
   * enabled or not.
   */
  plugin(name: string): void {
    this.track(`plugin ${name}`, async () => {
      const res = await this.cleanupEngine.delete(`/plugins/${name}`, { query: { force: 1 } });
      if (res.status !== 200 && res.status !== 204 && res.status !== 404) throw new Error(res.describe());
    });
  }

  /**
   * Creates a swarm service (labelled) and schedules its removal, which waits until the containers
   * of its tasks are gone too. Returns its id.
   */
  async service(spec: Record<string, unknown>): Promise<string> {
    const labels = { ...(spec.Labels as Record<string, string> | undefined), ...this.labels };
    const res = await this.engine.post('/services/create', { json: { ...spec, Labels: labels } });
    if (res.status !== 201) throw new Error(`setup: could not create a service: ${res.describe()}`);
    const { ID } = res.json<{ ID: string }>();
    this.track(`service ${String(spec.Name ?? ID)}`, () => removeService(this.cleanupEngine, ID));
    return ID;
  }

  /**
   * Schedules the removal of every container and image labelled `label` (`key=value`), whenever they
   * were made: what a build leaves (its intermediate containers when a step failed, its cached
   * intermediate images) is known only by the label its build file gave it.
   */
  labelled(label: string): void {
    this.track(`containers and images labelled ${label}`, async () => {
      const filters = JSON.stringify({ label: [label] });
      const containers = await this.cleanupEngine.get('/containers/json', { query: { all: 1, filters } });
      if (containers.status !== 200) throw new Error(containers.describe());
      for (const { Id } of containers.json<{ Id: string }[]>()) {
        const res = await this.cleanupEngine.delete(`/containers/${Id}`, { query: { force: 1, v: 1 } });
        if (res.status !== 204 && res.status !== 404) throw new Error(res.describe());
      }
      const images = await retriedOnServerError(() => this.cleanupEngine.get('/images/json', { query: { all: 1, filters } }));
      if (images.status !== 200) throw new Error(images.describe());
      const { failed } = await removeImages(this.cleanupEngine, images.json<ListedImage[]>());
      if (failed.length > 0) throw new Error(failed.join('; '));
    });
  }

  /** Removes in reverse order of creation; reports what could not be removed instead of hiding it. */
  async cleanup(): Promise<string[]> {
    const leftovers: string[] = [];
    for (const { what, remove } of this.removers.splice(0).reverse()) {
      try {
        await remove();
      } catch (error) {
        leftovers.push(`${what}: ${(error as Error).message}`);
      }
    }
    return leftovers;
  }
}

/**
 * How long a forced container removal is retried: Podman 4.3 refuses one with 500 "container state
 * improper: stopped" while it cleans up after the container's process exited (a `cat` whose stdin
 * the check just closed), and the container would stay behind.
 */
const CONTAINER_REMOVAL_TIMEOUT_MS = 10_000;

/** Forced removal of a container with its anonymous volumes; retried while the target refuses it, then an error that names the answer. */
export async function removeContainer(engine: EngineClient, id: string): Promise<void> {
  const deadline = Date.now() + CONTAINER_REMOVAL_TIMEOUT_MS;
  for (;;) {
    const res = await engine.delete(`/containers/${id}`, { query: { force: 1, v: 1 } });
    if (res.status === 204 || res.status === 404) return;
    if (Date.now() >= deadline) throw new Error(res.describe());
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** How long a removed service's task containers may take to go: each stops within its grace period first. */
const SERVICE_REMOVAL_TIMEOUT_MS = 30_000;

/**
 * Removes a service, then waits until the daemon has removed its task containers (it does so after
 * answering), so that nothing of it is left when the caller moves on.
 */
export async function removeService(engine: EngineClient, id: string): Promise<void> {
  const res = await engine.delete(`/services/${id}`);
  if (res.status !== 200 && res.status !== 404) throw new Error(res.describe());
  const filters = JSON.stringify({ label: [`com.docker.swarm.service.id=${id}`] });
  await until(
    async () => {
      const containers = await engine.get('/containers/json', { query: { all: 1, filters } });
      if (containers.status !== 200) throw new Error(containers.describe());
      return containers.json<{ Id: string }[]>().map((container) => container.Id.slice(0, 12));
    },
    (left) => left.length === 0,
    { timeoutMs: SERVICE_REMOVAL_TIMEOUT_MS, intervalMs: 200, what: `the task containers of service ${id} to be removed` },
  );
}

/** The fields of an image list item that removal needs. */
export interface ListedImage {
  Id: string;
  ParentId?: string;
  RepoTags?: string[] | null;
  Labels?: Record<string, string> | null;
}

/**
 * Removes images by id, forced, children before their parents (a parent with a child is a conflict);
 * a parent that went with its last child (404) counts as removed.
 */
export async function removeImages(engine: EngineClient, images: ListedImage[]): Promise<{ removed: string[]; failed: string[] }> {
  const removed: string[] = [];
  const failed: string[] = [];
  let remaining = images;
  while (remaining.length > 0) {
    const parents = new Set(remaining.map((image) => image.ParentId));
    const leaves = remaining.filter((image) => !parents.has(image.Id));
    // A parent loop cannot happen between images; should a target report one, remove them all anyway.
    const round = leaves.length > 0 ? leaves : remaining;
    for (const { Id } of round) {
      const res = await engine.delete(`/images/${Id}`, { query: { force: 1 } });
      const what = `image ${Id.replace(/^sha256:/, '').slice(0, 12)}`;
      if (res.status === 200 || res.status === 404) removed.push(what);
      else failed.push(`${what}: ${res.describe()}`);
    }
    remaining = remaining.filter((image) => !round.includes(image));
  }
  return { removed, failed };
}
