/**
 * `POST /build` on the model: dockerd's classic builder (builder/dockerfile) step by step. Each
 * stage starts at its FROM image (running the image's ONBUILD triggers first); each instruction
 * either reuses a cached image or makes a new one on top of the current image: RUN in a container
 * created from it (started, its output streamed, its filesystem changes committed as the step's
 * layer), COPY and ADD straight into a new layer, the others through a container that is created
 * and never started, committed with no layer (a `#(nop)` step). Intermediate containers are removed
 * after each step unless `rm` is off, even after a failure with `forcerm`. The text the client sees
 * is dockerd's, message by message.
 */
import { posix } from 'node:path';
import { ImageLayerStack } from '../../filesystem/image-layer-stack.ts';
import { LayeredFilesystem } from '../../filesystem/layered-filesystem.ts';
import type { Layer } from '../../filesystem/layer.ts';
import type { Container } from '../containers/container.ts';
import type { ContainerSpec } from '../containers/container-config.ts';
import type { EngineModel } from '../engine-model.ts';
import { EngineError, NotFoundError } from '../common/errors.ts';
import type { HostConfig } from '../containers/host-config.ts';
import { parseImageReference } from '../images/image-reference.ts';
import { preparePull } from '../images/image-pull.ts';
import { registryHost, type RegistryCredentials, type RegistryProgress } from '../images/image-registry.ts';
import { mergedHealthcheck } from '../images/image-config-merge.ts';
import { emptyImageConfig, type Image, type ImageConfig } from '../images/image.ts';
import { BuildArgs } from '../../builder/build-args.ts';
import { BuildCache, cacheSources } from './build-cache.ts';
import type { BuildContext } from '../../builder/build-context.ts';
import { StepFailedError, type BuildOutput } from '../../builder/build-output.ts';
import { parseInstruction, type BuildPlan, type Instruction } from '../../builder/buildfile-instructions.ts';
import { parseBuildfile, type EscapeToken } from '../../builder/buildfile-parser.ts';
import { applyConfigInstruction, commandArgv, isConfigInstruction, type StageSettings, type Substitution } from '../../builder/config-instructions.ts';
import { shellOf } from '../../builder/run-config.ts';
import { copyIntoFilesystem } from '../../builder/copy-into-filesystem.ts';
import { contextSources, downloadedSource, isUrl, sourcesHash, type CopySource, type Downloader } from '../../builder/copy-sources.ts';
import { processWord, processWords } from '../../builder/variable-substitution.ts';

/** The resource limits of the build's containers (the request's memory, cpu… parameters). */
export type BuildResources = Partial<Pick<HostConfig, 'Memory' | 'MemorySwap' | 'CpuShares' | 'CpusetCpus' | 'CpuPeriod' | 'CpuQuota'>>;

export interface BuildOptions {
  context: BuildContext;
  plan: BuildPlan;
  escape: EscapeToken;
  /** familiar `repository:tag` names for the result */
  tags: string[];
  noCache: boolean;
  /** `cachefrom`: the only images (with their ancestors) the cache may reuse; absent: any */
  cacheFrom?: readonly string[];
  /** pull the FROM images even when the engine has them */
  pull: boolean;
  /** remove the intermediate containers after a successful step */
  remove: boolean;
  /** remove them after every step, failed or not */
  forceRemove: boolean;
  /** `buildargs`: a null value asks for the daemon's environment's, which the reference has none of */
  buildArgs: ReadonlyMap<string, string | null>;
  /** `labels`: set on the result as LABEL steps at the end */
  labels: Readonly<Record<string, string>>;
  resources: BuildResources;
  /** the network the RUN steps' containers join (their NetworkMode); absent: the default */
  networkMode?: string;
  /** fetches ADD's URLs */
  download: Downloader;
  /** X-Registry-Config: the credentials for a registry host, for the pulls of FROM; none when absent */
  registryCredentials?: (host: string) => RegistryCredentials;
  /** aborts when the client goes away */
  signal?: AbortSignal;
}

/** The state of the stage being built: dockerd's dispatchState. */
interface StageState extends StageSettings<ImageConfig> {
  /** the current image, '' before the first step of a `FROM scratch` stage */
  imageId: string;
}

const SCRATCH = 'scratch';

/** Builds, tags, and answers the new image; the reasons it fails are thrown. */
export async function buildImage(model: EngineModel, options: BuildOptions, output: BuildOutput): Promise<Image> {
  const image = await new ImageBuilder(model, options, output).build();
  output.stdout(`Successfully built ${truncateId(image.id)}\n`);
  for (const tag of options.tags) {
    model.images.tag(image, tag);
    output.stdout(`Successfully tagged ${tag}\n`);
  }
  return image;
}

class ImageBuilder {
  private readonly args: BuildArgs;
  private readonly cache: BuildCache;
  /** containers of the current step, which the step's end removes (or keeps) */
  private readonly stepContainers: Container[] = [];
  private step = 1;
  private readonly steps: number;

  constructor(
    private readonly model: EngineModel,
    private readonly options: BuildOptions,
    private readonly output: BuildOutput,
  ) {
    this.args = new BuildArgs(options.buildArgs);
    this.cache = new BuildCache(model.images, !options.noCache, options.cacheFrom && cacheSources(model.images, options.cacheFrom));
    const { metaArgs, stages } = options.plan;
    this.steps = metaArgs.length + stages.reduce((sum, stage) => sum + 1 + stage.instructions.length, 0) + Object.keys(options.labels).length;
  }

  async build(): Promise<Image> {
    const { plan } = this.options;
    for (const meta of plan.metaArgs) {
      this.printStep(meta.text);
      const env = this.args.environment([]);
      for (const { key, value } of meta.args) this.args.declareMeta(this.substitute(key, env), value === undefined ? undefined : this.substitute(value, env));
    }
    let state: StageState | undefined;
    for (const [index, stage] of plan.stages.entries()) {
      this.cache.reset();
      this.args.beginStage();
      this.printStep(stage.from.text);
      state = await this.beginStage(stage.from.image);
      this.output.stdout(` ---> ${truncateId(state.imageId)}\n`);
      const labels = index === plan.stages.length - 1 ? labelInstructions(this.options.labels) : [];
      for (const instruction of [...stage.instructions, ...labels]) {
        // A step that needs no I/O never lets other requests in: each one waits its turn behind them.
        await new Promise((resolve) => setImmediate(resolve));
        this.checkCancelled();
        this.printStep(instruction.text);
        await this.dispatch(state, instruction);
        this.output.stdout(` ---> ${truncateId(state.imageId)}\n`);
      }
    }
    const unused = this.args.unused();
    if (unused.length > 0) this.output.stdout(`[Warning] One or more build-args [${unused.join(' ')}] were not consumed\n`);
    const image = state?.imageId ? this.model.images.byId(state.imageId) : undefined;
    if (image === undefined) throw new EngineError('No image was generated. Is your Dockerfile empty?');
    return image;
  }

  private printStep(text: string): void {
    this.output.stdout(`Step ${this.step}/${this.steps} : ${text}`);
    this.output.stdout('\n');
    this.step += 1;
  }

  private checkCancelled(): void {
    if (this.options.signal?.aborted) throw new EngineError('Build cancelled');
  }

  // --- FROM -----------------------------------------------------------------------------------

  private async beginStage(from: string): Promise<StageState> {
    const name = this.substitute(from, this.args.metaEnvironment());
    const base = name === SCRATCH ? undefined : await this.baseImage(name);
    const runConfig = base === undefined ? emptyImageConfig() : structuredClone(base.config);
    if (!runConfig.Env.some((entry) => entry.startsWith('PATH='))) runConfig.Env.push('PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
    runConfig.OpenStdin = false;
    runConfig.StdinOnce = false;
    const state: StageState = { imageId: base?.id ?? '', runConfig, maintainer: '', cmdSet: false };
    const triggers = runConfig.OnBuild ?? [];
    runConfig.OnBuild = null;
    if (triggers.length > 0) await this.runTriggers(state, triggers);
    runConfig.Image = state.imageId;
    return state;
  }

  /** The engine's image unless `pull`, else (or when it has none) what pulling it from its registry gives. */
  private async baseImage(name: string): Promise<Image> {
    const reference = parseImageReference(name);
    if (reference === undefined) throw new EngineError('invalid reference format');
    if (!this.options.pull) {
      try {
        return this.model.images.find(name);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    const credentials = this.options.registryCredentials?.(registryHost(reference.repository)) ?? {};
    const pull = await preparePull(this.model.registries, this.model.images, reference, credentials);
    await pull.run((line) => this.reportPull(line));
    return this.model.images.find(name);
  }

  /** A pull's progress in the build's stream, as lines of text and download progress. */
  private reportPull(line: RegistryProgress): void {
    if (line.kind === 'progress') this.output.progress(line.id, line.status, line.current, line.total);
    else if (line.kind === 'message') this.output.stdout(`${line.id ? `${line.id}: ` : ''}${line.text}\n`);
    else if (line.kind === 'update') this.output.stdout(`${line.id}: ${line.status}\n`);
  }

  /** The base image's ONBUILD instructions, run before the stage's own, without Step lines of their own. */
  private async runTriggers(state: StageState, triggers: readonly string[]): Promise<void> {
    this.output.stdout(`# Executing ${triggers.length} build trigger`);
    if (triggers.length > 1) this.output.stdout('s');
    this.output.stdout('\n');
    for (const trigger of triggers) {
      state.runConfig.Image = state.imageId;
      const [line] = parseBuildfile(trigger).lines;
      await this.dispatch(state, parseInstruction(line as NonNullable<typeof line>, '\\'));
    }
  }

  // --- the steps ------------------------------------------------------------------------------

  /** One instruction, then the removal of its containers (dockerd's deferred RemoveAll). */
  private async dispatch(state: StageState, instruction: Instruction): Promise<void> {
    let failed = true;
    try {
      await this.perform(state, instruction);
      failed = false;
    } finally {
      // A build cancelled by its client kills and removes the step's container, as dockerd's builder does.
      const cancelled = this.options.signal?.aborted ?? false;
      if (this.options.forceRemove || cancelled || (this.options.remove && !failed)) await this.removeStepContainers();
      else this.stepContainers.length = 0;
    }
    state.runConfig.Image = state.imageId;
  }

  private async perform(state: StageState, instruction: Instruction): Promise<void> {
    const env = [...state.runConfig.Env, ...this.args.environment(state.runConfig.Env)];
    const substitute: Substitution = {
      word: (text) => this.substitute(text, env),
      words: (text) => processWords(text, env, this.options.escape),
    };
    if (isConfigInstruction(instruction)) {
      const comment = applyConfigInstruction(instruction, state, { substitute, args: this.args, note: (text) => this.output.stdout(text) });
      // the comment follows the shell (SHELL's own step too); WORKDIR's is one word with it (withCmdCommentString), and makes its directory
      const shell = shellOf(state.runConfig);
      if (instruction.kind !== 'workdir') return this.commitConfig(state, [...shell, '#(nop) ', comment]);
      const directory = state.runConfig.WorkingDir;
      return this.commitConfig(state, [...shell, `#(nop) ${comment}`], (filesystem) => filesystem.mkdir(directory, { parents: true }));
    }
    switch (instruction.kind) {
      case 'run':
        if (instruction.buildKitFlag !== undefined) throw new EngineError(`the --${instruction.buildKitFlag} option requires BuildKit. Refer to https://docs.docker.com/go/buildkit/ to learn how to build images with BuildKit enabled`);
        return this.run(state, commandArgv(instruction.command, state.runConfig));
      case 'copy':
      case 'add':
        return this.copy(state, instruction.kind, instruction.sources.map(substitute.word), substitute.word(instruction.dest));
      case 'from':
        throw new EngineError('FROM is only allowed at the start of a stage');
    }
  }

  private substitute(text: string, env: readonly string[]): string {
    return processWord(text, env, this.options.escape);
  }

  /**
   * A config-only step: probe the cache, else commit the changes of a container created and never
   * started (none but what `change` makes: WORKDIR's directory).
   */
  private async commitConfig(state: StageState, cmd: string[], change?: (filesystem: LayeredFilesystem) => void): Promise<void> {
    const config = { ...structuredClone(state.runConfig), Cmd: cmd };
    if (this.reuseCached(state, config)) return;
    if (state.imageId === '') {
      // the model creates no container without an image: a scratch stage's step changes a filesystem of its own
      const filesystem = new LayeredFilesystem(new ImageLayerStack([]), { clock: this.model.clock });
      change?.(filesystem);
      return this.commitImage(state, config, filesystem.commitLayer());
    }
    this.inheritHealthcheck(state, config);
    const container = this.createContainer(state, config);
    change?.(container.filesystem);
    // dockerd's create fills the hostname into the config it was given, which the image records
    await this.commitImage(state, { ...config, Hostname: truncateId(container.id) }, container.filesystem.commitLayer(), container);
  }

  private async run(state: StageState, argv: string[]): Promise<void> {
    const buildEnv = this.args.environment(state.runConfig.Env);
    const recorded = buildEnv.filter((entry) => this.args.isRecorded(entry.split('=', 1)[0] as string)).sort();
    // build-time variables are recorded in the command, so that they take part in the cache key
    const savedCmd = buildEnv.length > 0 ? [`|${recorded.length}`, ...recorded, ...argv] : argv;
    const recordedConfig: ImageConfig = { ...structuredClone(state.runConfig), Cmd: savedCmd, Entrypoint: savedCmd.length > 0 ? null : state.runConfig.Entrypoint };
    if (this.reuseCached(state, recordedConfig)) return;
    if (state.imageId === '') throw new EngineError(`failed to create shim: OCI runtime create failed: exec: "${argv[0] ?? ''}": stat ${argv[0] ?? ''}: no such file or directory: unknown`);
    this.inheritHealthcheck(state, recordedConfig);
    const container = this.createContainer(state, { ...structuredClone(state.runConfig), Cmd: argv, Env: [...state.runConfig.Env, ...buildEnv] }, { noEntrypoint: true });
    const exitCode = await this.runContainer(container);
    if (exitCode !== 0) throw new StepFailedError(argv, exitCode);
    await this.commitImage(state, recordedConfig, container.filesystem.commitLayer(), container);
  }

  /** Attached before the start, as dockerd's containerManager.Run: the output streams as it comes. */
  private async runContainer(container: Container): Promise<number> {
    const { model, output } = this;
    const attachment = model.attach.attach(container, {
      stdin: false,
      stdout: true,
      stderr: true,
      output: (stream, chunk) => (stream === 'stdout' ? output.stdout(chunk.toString('utf8')) : output.stderr(chunk.toString('utf8'))),
    });
    const cancel = () => void model.lifecycle.kill(container).catch(() => undefined);
    this.options.signal?.addEventListener('abort', cancel, { once: true });
    try {
      model.lifecycle.start(container);
      await attachment?.ended;
      return await model.lifecycle.wait(container);
    } finally {
      this.options.signal?.removeEventListener('abort', cancel);
    }
  }

  private async copy(state: StageState, kind: 'copy' | 'add', sourceWords: string[], destWord: string): Promise<void> {
    const name = kind.toUpperCase();
    const sources = await this.copySources(name, sourceWords);
    if (sources.length > 1 && !destWord.endsWith('/')) throw new EngineError(`When using ${name} with more than one source file, the destination must be a directory and end with a /`);
    const config = { ...structuredClone(state.runConfig), Cmd: [...shellOf(state.runConfig), `#(nop) ${name} ${sourcesHash(sources)} in ${destWord} `] };
    if (this.reuseCached(state, config)) return;
    const base = state.imageId === '' ? new ImageLayerStack([]) : (this.model.images.byId(state.imageId) as Image).layers;
    const filesystem = new LayeredFilesystem(base, { clock: this.model.clock });
    const dest = destWord.startsWith('/') ? destWord : `${posix.join('/', state.runConfig.WorkingDir, destWord)}${destWord.endsWith('/') ? '/' : ''}`;
    await copyIntoFilesystem(filesystem, this.options.context, sources, dest, { unpackArchives: kind === 'add' });
    await this.commitImage(state, config, filesystem.commitLayer());
  }

  private async copySources(name: string, words: readonly string[]): Promise<CopySource[]> {
    const sources: CopySource[] = [];
    try {
      for (const word of words) {
        if (!isUrl(word)) sources.push(...contextSources(this.options.context, word));
        else if (name === 'ADD') sources.push(await this.downloaded(word));
        else throw new EngineError(`source can't be a URL for ${name}`);
      }
    } catch (error) {
      if (error instanceof EngineError) throw new EngineError(`${name} failed: ${error.message}`);
      throw error;
    }
    if (sources.length === 0) throw new EngineError(`${name} failed: no source files were specified`);
    return sources;
  }

  private async downloaded(url: string): Promise<CopySource> {
    const source = await downloadedSource(url, this.options.download, this.model.clock());
    const size = source.origin === 'url' ? source.file.data.length : 0;
    this.output.progress('', 'Downloading', size, size);
    this.output.stdout('\n');
    return source;
  }

  // --- containers and images -------------------------------------------------------------------

  /**
   * dockerd creates a step's container from a copy of the stage's config that shares its healthcheck,
   * and the create's merge fills that healthcheck's empty parts from the current image's: the stage,
   * the step's container config and every later image keep them (a HEALTHCHECK without `--timeout`
   * after one with it records the earlier timeout).
   */
  private inheritHealthcheck(state: StageState, containerConfig: ImageConfig): void {
    const own = state.runConfig.Healthcheck;
    const below = this.model.images.byId(state.imageId)?.config.Healthcheck;
    if (own === undefined || below === undefined) return;
    state.runConfig.Healthcheck = mergedHealthcheck(own, below);
    containerConfig.Healthcheck = structuredClone(state.runConfig.Healthcheck);
  }

  private createContainer(state: StageState, config: ImageConfig, options: { noEntrypoint?: boolean } = {}): Container {
    const spec: ContainerSpec = {
      Image: state.imageId,
      Cmd: config.Cmd,
      Entrypoint: options.noEntrypoint ? [] : config.Entrypoint,
      Env: config.Env,
      Labels: config.Labels,
      User: config.User,
      WorkingDir: config.WorkingDir,
      Volumes: config.Volumes,
      ...(config.StopSignal !== undefined && { StopSignal: config.StopSignal }),
    };
    const { resources, networkMode } = this.options;
    const container = this.model.containers.create({ config: spec, hostConfig: { ...resources, ...(networkMode !== undefined && { NetworkMode: networkMode }) } });
    this.stepContainers.push(container);
    this.output.stdout(` ---> Running in ${truncateId(container.id)}\n`);
    return container;
  }

  private async removeStepContainers(): Promise<void> {
    for (const container of this.stepContainers.splice(0)) {
      // dockerd's builder removes them with their anonymous volumes (an image's VOLUME makes one per step)
      await this.model.lifecycle.remove(container, { force: true, volumes: true });
      this.output.stdout(`Removing intermediate container ${truncateId(container.id)}\n`);
    }
  }

  /** A cached image for the step, which becomes the current one. */
  private reuseCached(state: StageState, config: ImageConfig): boolean {
    const cached = this.cache.probe(state.imageId, config);
    if (cached === undefined) return false;
    this.output.stdout(' ---> Using cache\n');
    state.imageId = cached.id;
    return true;
  }

  /** The step's image: the current one plus the layer (none when it holds no change), with the stage's config. */
  private async commitImage(state: StageState, containerConfig: ImageConfig, layer: Layer | undefined, container?: Container): Promise<void> {
    const image = await this.model.images.create({
      ...(state.imageId !== '' && { parent: this.model.images.byId(state.imageId) }),
      ...(layer !== undefined && layer.entries().length > 0 && { layer }),
      config: structuredClone(state.runConfig),
      containerConfig,
      container: container?.id ?? '',
      author: state.maintainer,
      createdBy: (containerConfig.Cmd ?? []).join(' '),
    });
    state.imageId = image.id;
  }
}

/** The request's `labels` as LABEL steps, one a label, by name; values quoted so that nothing in them is substituted. */
function labelInstructions(labels: Readonly<Record<string, string>>): Instruction[] {
  return Object.keys(labels)
    .sort()
    .map((key) => ({ kind: 'label', pairs: [{ key, value: `'${labels[key] ?? ''}'` }], text: `LABEL ${key}=${labels[key] ?? ''}`, line: 0 }));
}

/** stringid.TruncateID: 12 hex digits, no algorithm; '' stays ''. */
function truncateId(id: string): string {
  return id.slice(id.indexOf(':') + 1).slice(0, 12);
}
