/**
 * POST /build (spec/2 §4.1): the context is the body (a tar, plain or compressed) or what `remote`
 * names; the answer is dockerd's JSON message stream. What can be refused before anything is built
 * (build args, labels, tags, the context, the build file) is an HTTP error; once the stream has begun,
 * a failure is its last message. With `q`, the messages are held back: a success shows only the
 * image id, a failure everything held, then the error. The build file's query parameter is the
 * dialect's (`buildfile`, or `dockerfile` on Docker's). dockerd reads every parameter at every
 * version (build args, the `cpuperiod` and `cpuquota` of 1.19 and later), and so does the reference.
 */
import { readBody } from '../../request-limits.ts';
import { BuildContext } from '../builder/build-context.ts';
import type { BuildOutput } from '../builder/build-output.ts';
import { StepFailedError } from '../builder/build-output.ts';
import { buildTags } from '../model/builds/build-tags.ts';
import { buildfileFromContext, readBuildfile, type ReadBuildfile } from '../builder/buildfile-source.ts';
import { buildImage, type BuildResources } from '../model/builds/image-builder.ts';
import { gitCloneError, isSingleBuildfile, remoteKind } from '../builder/remote-context.ts';
import { EngineError, InvalidParameterError } from '../model/common/errors.ts';
import { BUILD_ARGS, BUILD_LABELS } from './body-structs.ts';
import { downloadImportSource } from './import-download.ts';
import { decodeGo, type GoType } from './json-fields.ts';
import { JsonMessageStream } from './json-messages.ts';
import { registryConfigCredentials } from './registry-auth-header.ts';
import { clientGone } from './route-helpers.ts';
import type { Route, RouteContext } from './route-table.ts';

export const buildRoutes: Route[] = [{ method: 'POST', path: '/build', handle: build }];

async function build(route: RouteContext): Promise<void> {
  const { request, response, query, model, dialect, personality } = route;
  const buildArgs = stringMapQuery(query.get('buildargs'), 'build args', BUILD_ARGS);
  const labels = stringMapQuery(query.get('labels'), 'labels', BUILD_LABELS);
  const tags = buildTags(query.getAll('t'));
  const quiet = personality.booleanQuery(query.get('q'), false);
  const messages = new JsonMessageStream(response);
  const output = new BuildStream(messages, quiet);
  const body = await readBody(request, 'tar');
  try {
    const { context, buildfile } = await loadContext(body, query.get('remote') ?? '', query.get(dialect.buildFileQuery) ?? '', dialect.buildFileName, output);
    const image = await buildImage(
      model,
      {
        context,
        plan: buildfile.plan,
        escape: buildfile.escape,
        tags,
        noCache: personality.booleanQuery(query.get('nocache'), false),
        ...cacheFromQuery(query.get('cachefrom')),
        pull: personality.booleanQuery(query.get('pull'), false),
        remove: personality.booleanQuery(query.get('rm'), true),
        forceRemove: personality.booleanQuery(query.get('forcerm'), false),
        buildArgs: new Map(Object.entries(buildArgs)),
        labels: Object.fromEntries(Object.entries(labels).map(([key, value]) => [key, value ?? ''])),
        resources: resourcesOf(query),
        // API 1.25's; dockerd 20.10 reads it at every version
        networkMode: query.get('networkmode') || undefined,
        // a malformed header is ignored, as on dockerd
        registryCredentials: registryConfigCredentials(request.headers['x-registry-config'], route.version),
        download: async (url) => {
          const { archive, lastModified } = await downloadImportSource(url);
          return { data: archive, ...(lastModified !== undefined && { lastModified }) };
        },
        signal: clientGone(route),
      },
      output,
    );
    if (quiet) output.quietResult(personality.quietBuildOutput(image.id));
  } catch (error) {
    output.releaseHeld();
    if (!output.started) throw error;
    messages.error((error as Error).message, error instanceof StepFailedError ? error.code : 0);
  }
  messages.end();
}

/** The body's tar, or what `remote` names: a context tar, or a single build file and no context. */
async function loadContext(body: Buffer, remote: string, path: string, defaultName: string, output: BuildStream): Promise<{ context: BuildContext; buildfile: ReadBuildfile }> {
  if (remote === '') {
    const context = await BuildContext.fromArchive(body);
    return { context, buildfile: buildfileFromContext(context, path, defaultName) };
  }
  if (remoteKind(remote) === 'git') throw gitCloneError(remote);
  const download = await downloadImportSource(remote);
  const single = isSingleBuildfile(download.contentType, download.archive);
  output.progress('Downloading context', remote, download.archive.length, 0);
  if (single) {
    output.empty();
    return { context: BuildContext.none(), buildfile: readBuildfile(download.archive, path || defaultName, defaultName) };
  }
  const context = await BuildContext.fromArchive(download.archive);
  return { context, buildfile: buildfileFromContext(context, path, defaultName) };
}

/** `buildargs` and `labels`: a JSON object of strings (a build arg may be null), decoded as dockerd decodes them. */
function stringMapQuery(text: string | null, what: string, type: GoType): Record<string, string | null> {
  if (text === null || text === '') return {};
  try {
    return decodeGo<Record<string, string | null>>(JSON.parse(text), type);
  } catch (error) {
    throw new InvalidParameterError(`error reading ${what}: ${(error as Error).message}`);
  }
}

/**
 * `cachefrom`: a JSON list of image names; dockerd passes a decoding error on as it is (500). An empty
 * list is no cachefrom (the local cache), as on dockerd: the docker CLI 20.10 sends `[]` with every build.
 */
function cacheFromQuery(text: string | null): { cacheFrom?: string[] } {
  if (text === null || text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new EngineError((error as Error).message);
  }
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) throw new EngineError(`json: cannot unmarshal ${JSON.stringify(text)} into Go value of type []string`);
  return parsed.length === 0 ? {} : { cacheFrom: parsed };
}

/** The containers' limits; dockerd reads each with Int64ValueOrZero: what is no integer is 0. */
function resourcesOf(query: URLSearchParams): BuildResources {
  const integer = (name: string) => {
    const text = query.get(name) ?? '';
    return /^[+-]?\d+$/.test(text) ? Number(text) : 0;
  };
  return {
    Memory: integer('memory'),
    MemorySwap: integer('memswap'),
    CpuShares: integer('cpushares'),
    CpusetCpus: query.get('cpusetcpus') ?? '',
    CpuPeriod: integer('cpuperiod'),
    CpuQuota: integer('cpuquota'),
  };
}

/**
 * The build's messages on the wire: the answer begins with the first of them; with `q` they are
 * held back until the build ends (dockerd's notVerboseBuffer).
 */
class BuildStream implements BuildOutput {
  private readonly held: Array<() => void> = [];
  started = false;

  constructor(
    private readonly messages: JsonMessageStream,
    private readonly quiet: boolean,
  ) {}

  stdout(text: string): void {
    this.send(() => this.messages.stream(text));
  }

  /** dockerd colours standard error red for terminals */
  stderr(text: string): void {
    this.send(() => this.messages.stream(`\u001b[91m${text}\u001b[0m`));
  }

  progress(id: string, action: string, current: number, total: number): void {
    this.send(() => this.messages.progress(action, id, current, total));
  }

  empty(): void {
    this.send(() => this.messages.empty());
  }

  /** With `q`, a success shows only what the personality says of the image. */
  quietResult(text: string): void {
    this.held.length = 0;
    this.write(() => this.messages.stream(text));
  }

  /** With `q`, a failure shows everything held back. */
  releaseHeld(): void {
    for (const write of this.held.splice(0)) this.write(write);
  }

  private send(write: () => void): void {
    if (this.quiet) this.held.push(write);
    else this.write(write);
  }

  private write(write: () => void): void {
    if (!this.started) {
      this.messages.begin();
      this.started = true;
    }
    write();
  }
}
