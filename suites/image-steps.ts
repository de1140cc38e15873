/**
 * Steps the image and build checks take: name the fixture image, commit, import, save, load and build
 * images, run them, and read the JSON streams these endpoints answer with (spec/2 §4.1). Each step
 * asserts the answer it depends on, so a target that cannot take the step fails the check there and
 * says which request it was. Every image a step makes is tracked by `make` and goes with the check;
 * the fixture image itself is only ever given extra names, never untagged or removed.
 */
import type { CheckContext } from '../harness/check.ts';
import { NonConformingResponse, type ApiResponse } from '../harness/client/api-response.ts';
import type { Query } from '../harness/client/engine-client.ts';
import { splitJsonObjects } from '../harness/client/streamed-response.ts';
import { decodeFrames } from '../harness/streams/frame-decoder.ts';
import { retriedOnServerError, until, WaitTimeout } from '../harness/wait-until.ts';
import { exitedState, startContainer } from './container-steps.ts';
import { streamText } from './stream-reading.ts';

export interface ImageSummary {
  Id: string;
  ParentId?: string;
  RepoTags?: string[] | null;
  RepoDigests?: string[] | null;
  Labels?: Record<string, string> | null;
  Created: number;
}

/** The config an image gives its containers (image inspect `Config`). */
export interface ImageConfig {
  Cmd?: string[] | null;
  Entrypoint?: string[] | null;
  Env?: string[] | null;
  Labels?: Record<string, string> | null;
  WorkingDir?: string;
  User?: string;
  ExposedPorts?: Record<string, unknown> | null;
  Volumes?: Record<string, unknown> | null;
  OnBuild?: string[] | null;
}

export interface ImageInspect {
  Id: string;
  RepoTags?: string[] | null;
  Parent: string;
  /** the container a commit was made from */
  Container?: string;
  Comment?: string;
  Author?: string;
  Config?: ImageConfig;
  ContainerConfig?: ImageConfig;
}

/**
 * The image's own configuration: what a commit's body or a build's instructions set. Spec/2 §2.1 lists
 * only ContainerConfig in an image's inspect; dockerd and Podman answer a Config besides it, which holds
 * that configuration (their ContainerConfig is the config of the container the image was made from). A
 * spec-true daemon may answer ContainerConfig alone, so that is read where there is no Config.
 */
export function imageConfig(image: ImageInspect): ImageConfig {
  return image.Config ?? image.ContainerConfig ?? {};
}

export interface HistoryItem {
  Id: string;
  Created: number;
  CreatedBy: string;
}

/** One object of a JSON stream answer (build, import, load). */
export interface StreamMessage {
  stream?: string;
  status?: string;
  error?: string;
  errorDetail?: { code?: number; message?: string };
}

/** An image id without the `sha256:` a target may or may not put before it, for comparing ids. */
export function bareImageId(id: string): string {
  return id.replace(/^sha256:/, '');
}

/** `repository:tag` of a name; a name without a tag means `latest`. */
export function splitImageName(name: string): { repo: string; tag: string } {
  const colon = name.lastIndexOf(':');
  return colon > name.lastIndexOf('/') ? { repo: name.slice(0, colon), tag: name.slice(colon + 1) } : { repo: name, tag: 'latest' };
}

/** A new image name of this run: `shipshape-<run>-<hint>-<random>:latest` (repository names are lowercase). */
export function uniqueImageName({ make }: CheckContext, hint = 'i'): string {
  return `${make.uniqueName(hint)}:latest`;
}

/** POST /images/{source}/tag naming `name`; a name the target gave is taken off again after the check. */
export async function tagImage({ engine, make }: CheckContext, source: string, name: string, query: Query = {}): Promise<ApiResponse> {
  const res = await engine.post(`/images/${encodeURIComponent(source)}/tag`, { query: { ...splitImageName(name), ...query } });
  if (res.status === 201) make.tag(name);
  return res;
}

/** How often {@link taggedFixture} gives the fixture image its new name before it takes the name as lost. */
const FIXTURE_TAG_ATTEMPTS = 3;

/**
 * A new name of this run on the fixture image; returns it. The name is given again while the target
 * does not answer for it: Podman 4.3 loses a name now and then when other clients tag or untag the
 * same image at the same moment (a 201, then 404 for good), which every check here does to the fixture.
 */
export async function taggedFixture(context: CheckContext, hint = 't'): Promise<string> {
  const name = uniqueImageName(context, hint);
  for (let attempt = 1; ; attempt++) {
    const res = await tagImage(context, context.session.fixtureImage, name);
    context.expect(res.status, `POST /images/{fixture}/tag status (naming ${name})`).toBe(201);
    try {
      await until(() => imageStatus(context, name), (status) => status === 200, { timeoutMs: 2000, intervalMs: 200, what: `GET /images/${name}/json to answer 200 after the tag` });
      return name;
    } catch (error) {
      if (!(error instanceof WaitTimeout) || attempt === FIXTURE_TAG_ATTEMPTS) throw error;
    }
  }
}

/** GET /images/{name}/json, which must answer 200 (a 500 is asked again: {@link retriedOnServerError}). */
export async function inspectImage({ engine, expect }: CheckContext, name: string): Promise<ImageInspect> {
  const res = await retriedOnServerError(() => engine.get(`/images/${encodeURIComponent(name)}/json`));
  expect(res.status, `GET /images/${name}/json status: ${res.describe()}`).toBe(200);
  return res.json<ImageInspect>();
}

/** The status GET /images/{name}/json answers: 200 when the target has the image, 404 when not. */
export async function imageStatus({ engine }: CheckContext, name: string): Promise<number> {
  return (await engine.get(`/images/${encodeURIComponent(name)}/json`)).status;
}

/** GET /images/json with `query`, which must answer 200 (a 500 is asked again: {@link retriedOnServerError}). */
export async function listImages({ engine, expect }: CheckContext, query: Query = {}): Promise<ImageSummary[]> {
  const res = await retriedOnServerError(() => engine.get('/images/json', { query }));
  expect(res.status, `GET /images/json?${new URLSearchParams(query as Record<string, string>)} status: ${res.describe()}`).toBe(200);
  return res.json<ImageSummary[]>();
}

/** DELETE /images/{name}, answered as it came. */
export function removeImage({ engine }: CheckContext, name: string, query: Query = {}): Promise<ApiResponse> {
  return engine.delete(`/images/${encodeURIComponent(name)}`, { query });
}

/** GET /images/{name}/history, which must answer 200. */
export async function imageHistory({ engine, expect }: CheckContext, name: string): Promise<HistoryItem[]> {
  const res = await engine.get(`/images/${encodeURIComponent(name)}/history`);
  expect(res.status, `GET /images/${name}/history status`).toBe(200);
  return res.json<HistoryItem[]>();
}

export interface CommitOptions {
  /** the image the container runs; the fixture image by default */
  from?: string;
  /** what the container runs to its end before the commit; without it the container is committed as created, never started */
  cmd?: string[];
  /** the name the commit gives the image; none leaves it untagged */
  name?: string;
  /** labels of the image: given to the container and in the commit's config body (spec/2 §4.1 lists Labels there) */
  labels?: Record<string, string>;
  /** further commit parameters: comment, author, changes, pause */
  query?: Query;
  /** the config body of the commit */
  config?: Record<string, unknown>;
}

/** Commits a container of `from` (run to its end first when given a command) and removes it; returns the new image's id. */
export async function committedImage(context: CheckContext, options: CommitOptions): Promise<string> {
  const { engine, expect, make, session } = context;
  const container = await make.container({ Image: options.from ?? session.fixtureImage, Cmd: options.cmd ?? ['true'], Labels: options.labels });
  if (options.cmd) {
    await startContainer(context, container);
    await exitedState(context, container);
  }
  const res = await commit(context, container, options.labels ? { ...options, config: { Labels: options.labels, ...options.config } } : options);
  expect(res.status, `POST /commit status: ${res.describe()}`).toBe(201);
  // Gone at once: a container still using an image keeps it from being deleted or pruned.
  const removal = await engine.delete(`/containers/${container}`, { query: { v: 1 } });
  expect(removal.status, 'DELETE /containers/{id} status (the committed container)').toBe(204);
  return res.json<{ Id: string }>().Id;
}

/** POST /commit of `container` with the options' name, parameters and config (a 500 is asked again: {@link retriedOnServerError}); the image goes with the check. */
export async function commit({ engine, make }: CheckContext, container: string, options: Omit<CommitOptions, 'cmd' | 'from' | 'labels'>): Promise<ApiResponse> {
  const naming = options.name ? splitImageName(options.name) : {};
  const res = await retriedOnServerError(() => engine.post('/commit', { query: { container, ...naming, ...options.query }, json: options.config ?? {} }));
  if (res.status === 201) make.image(res.json<{ Id: string }>().Id);
  return res;
}

/** A label of the check's own, as the labels of the images it commits ({@link CommitOptions.labels}) and as a list filter. */
export function ownLabels(context: CheckContext, hint = 'mark'): { labels: Record<string, string>; mark: string } {
  const value = context.make.uniqueName(hint);
  return { labels: { 'shipshape.mark': value }, mark: `shipshape.mark=${value}` };
}

/** Runs `cmd` (or the image's own command) in a new container of `image` to its end; returns its stdout. */
export async function imageOutput(context: CheckContext, image: string, cmd?: string[]): Promise<string> {
  const { engine, expect, make } = context;
  const container = await make.container({ Image: image, ...(cmd ? { Cmd: cmd } : {}) });
  await startContainer(context, container);
  const state = await exitedState(context, container);
  const res = await engine.get(`/containers/${container}/logs`, { query: { stdout: 1, stderr: 1 } });
  expect(res.status, 'GET /containers/{id}/logs status').toBe(200);
  const frames = decodeFrames(res.body).frames;
  expect(state.ExitCode, `exit code of ${JSON.stringify(cmd ?? 'the image command')} in ${image} (stderr ${JSON.stringify(streamText(frames, 'stderr'))})`).toBe(0);
  return streamText(frames, 'stdout');
}

/** The objects of a JSON stream answer read whole; anything but JSON objects fails the check. */
export function streamMessages(res: ApiResponse): StreamMessage[] {
  const text = res.text();
  const values = splitJsonObjects(text);
  if (values.join('').replace(/\s/g, '').length !== text.replace(/\s/g, '').length) {
    throw new NonConformingResponse(`${res.describe()}: the stream holds something besides JSON objects: ${JSON.stringify(text.slice(0, 300))}`);
  }
  return values.map((value) => JSON.parse(value) as StreamMessage);
}

/** The first failure a JSON stream reports, if any. */
export function streamError(messages: StreamMessage[]): StreamMessage | undefined {
  return messages.find((message) => message.error !== undefined);
}

/**
 * The root filesystem of the fixture image after `script` ran in it, as GET /containers/{id}/export
 * gives it: a tarball to import.
 */
export async function exportedRootfs(context: CheckContext, script: string): Promise<Buffer> {
  const { engine, expect, make, session } = context;
  const container = await make.container({ Image: session.fixtureImage, Cmd: ['sh', '-c', script] });
  await startContainer(context, container);
  await exitedState(context, container);
  const res = await engine.get(`/containers/${container}/export`);
  expect(res.status, 'GET /containers/{id}/export status').toBe(200);
  return res.body;
}

/** POST /images/create?fromSrc=- with `tarball` as the body, naming the image `name`; it goes with the check. */
export async function importImage({ engine, make }: CheckContext, tarball: Buffer, name: string, query: Query = {}): Promise<ApiResponse> {
  make.image(name);
  return engine.post('/images/create', { query: { fromSrc: '-', ...splitImageName(name), ...query }, headers: { 'content-type': 'application/x-tar' }, body: tarball });
}

/** GET /images/{name}/get, which must answer 200: the image's tarball. */
export async function savedTarball({ engine, expect }: CheckContext, name: string): Promise<Buffer> {
  const res = await engine.get(`/images/${encodeURIComponent(name)}/get`);
  expect(res.status, `GET /images/${name}/get status`).toBe(200);
  return res.body;
}

/** POST /images/load with `tarball`; the images it names must be tracked by the caller. */
export function loadTarball({ engine }: CheckContext, tarball: Buffer, query: Query = {}): Promise<ApiResponse> {
  return engine.post('/images/load', { query, headers: { 'content-type': 'application/x-tar' }, body: tarball });
}
