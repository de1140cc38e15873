/**
 * Steps of the build checks (spec/2 §4.1 POST /build): a context from `fixtures/build-contexts/`,
 * tarred with tar-stream, and the build itself with its JSON stream read whole. Every context gets a
 * `LABEL` right after its `FROM` with the run's label and one of its own, and the check removes every
 * container and image carrying that label when it ends: intermediate images a failed build kept for
 * its cache and the container of a failed step are found that way too.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckContext } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';
import type { Query } from '../../harness/client/engine-client.ts';
import { RUN_LABEL } from '../../harness/resources.ts';
import { inspectImage, streamError, streamMessages, uniqueImageName, type StreamMessage } from '../image-steps.ts';
import { buildTar, type TarSource } from '../tar-files.ts';

const CONTEXTS = fileURLToPath(new URL('../../fixtures/build-contexts/', import.meta.url));

/** The build file's name in the fixtures; a context puts it under the dialect's name. */
const TEMPLATE_NAME = 'Buildfile';

/** A build takes a step per instruction, and on a live daemon each step runs a container: more than the default deadline. */
export const BUILD_TIMEOUT_MS = 55_000;

/** How often builtImage tries a build whose stream reports an error. */
const BUILD_ATTEMPTS = 3;

/** The label key that marks what one build made. */
const BUILD_LABEL = 'shipshape.build';

export interface ContextOptions {
  /** values of the `{{name}}` placeholders besides `fixture` */
  values?: Record<string, string>;
  /** where the build file goes; the dialect's build file name at the root by default */
  buildFilePath?: string;
  /** files the check makes, added to the context */
  extra?: TarSource[];
}

export interface BuildContext {
  tar: Buffer;
  /** `shipshape.build=<unique>`: carried by everything this context's builds make */
  label: string;
}

/** The files of a fixture folder, depth first, as paths relative to it. */
async function filesUnder(folder: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(folder, prefix), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? filesUnder(folder, path.join(prefix, entry.name)) : Promise.resolve([path.join(prefix, entry.name)]))),
  );
  return nested.flat().sort();
}

/**
 * The tar of `fixtures/build-contexts/<name>/` with its build file filled in and marked; schedules
 * the removal of whatever builds of it make.
 */
export async function buildContext(context: CheckContext, name: string, options: ContextOptions = {}): Promise<BuildContext> {
  const { dialect, make, session } = context;
  const folder = path.join(CONTEXTS, name);
  const label = `${BUILD_LABEL}=${make.uniqueName('build')}`;
  make.labelled(label);
  const sources: TarSource[] = [];
  for (const file of await filesUnder(folder)) {
    const text = await readFile(path.join(folder, file), 'utf8');
    if (file !== TEMPLATE_NAME) {
      sources.push({ kind: 'file', name: file, data: text });
      continue;
    }
    const values: Record<string, string> = { fixture: session.fixtureImage, ...options.values };
    const filled = text.replace(/\{\{(\w+)\}\}/g, (placeholder, key: string) => values[key] ?? placeholder);
    const marked = filled.replace(/^(FROM .*)$/m, `$1\nLABEL ${RUN_LABEL}="${make.runId}" ${label.replace('=', '="')}"`);
    sources.push({ kind: 'file', name: options.buildFilePath ?? dialect.buildFileName, data: marked });
  }
  return { tar: await buildTar([...sources, ...(options.extra ?? [])]), label };
}

export interface BuildResult {
  res: ApiResponse;
  messages: StreamMessage[];
  /** the `stream` texts joined: what a client prints */
  output: string;
}

/** POST /build with `body` as the context (and `headers` besides its content type); the JSON stream read whole (a build ends its stream). */
export async function build({ engine }: CheckContext, body: Buffer, query: Query = {}, headers: Record<string, string> = {}): Promise<BuildResult> {
  const res = await engine.post('/build', { query, headers: { 'content-type': 'application/tar', ...headers }, body });
  const messages = res.status === 200 ? streamMessages(res) : [];
  return { res, messages, output: messages.map((message) => message.stream ?? '').join('') };
}

/**
 * POST /build of a context that must build; a build whose stream reports an error is tried again, up
 * to {@link BUILD_ATTEMPTS} times: a build is repeatable, so a correct target fails it every time,
 * while Podman 4.3 fails one now and then with "layer not known" as other clients remove images (its
 * storage races) and builds it on a next try; dockerd 20.10 once failed a step of `build.resources.limits`
 * with "unable to find image" in a whole run (other checks removing images) and builds it again too.
 */
export async function repeatableBuild(context: CheckContext, body: Buffer, query: Query = {}): Promise<BuildResult> {
  let result = await build(context, body, query);
  for (let attempt = 1; attempt < BUILD_ATTEMPTS && result.res.status === 200 && streamError(result.messages) !== undefined; attempt++) {
    result = await build(context, body, query);
  }
  return result;
}

/** Builds `body` as a new name of this run, which must succeed ({@link repeatableBuild}); returns the name and the image id. */
export async function builtImage(context: CheckContext, body: Buffer, query: Query = {}): Promise<{ name: string; id: string; result: BuildResult }> {
  const { expect } = context;
  const name = uniqueImageName(context, 'built');
  // The build's label takes the image too; the name is for a target that would drop the label.
  context.make.image(name);
  const result = await repeatableBuild(context, body, { t: name, ...query });
  expect(result.res.status, 'POST /build status').toBe(200);
  expect(streamError(result.messages), `an error in the build stream; output: ${result.output.slice(-500)}`).toBeUndefined();
  return { name, id: (await inspectImage(context, name)).Id, result };
}
