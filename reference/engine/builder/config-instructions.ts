/**
 * The instructions that change only a config, with dockerd's effects and the comment each records
 * (builder/dockerfile/dispatchers.go): ENV replaces a variable where it stands or appends it,
 * ENTRYPOINT drops a CMD not given in the same stage, EXPOSE takes port specs, STOPSIGNAL must name a
 * signal, HEALTHCHECK replaces the one before it (saying so when that one tested something), SHELL
 * changes what the shell form of the later RUN, CMD and ENTRYPOINT runs through, and so on. The
 * comment is what a build step's `#(nop)` command and the image's history show, with Go's formatting
 * (`CMD ["sh" "-c"]` quoted, `VOLUME [/a /b]` bare). A build's stages and a commit's or an import's
 * `changes` (config-changes.ts) apply them alike.
 */
import { posix } from 'node:path';
import { InvalidParameterError } from '../model/common/errors.ts';
import { signalNumber, UnknownSignalError } from '../process/index.ts';
import type { BuildArgs } from './build-args.ts';
import type { Instruction } from './buildfile-instructions.ts';
import { goDurationString, goQuote, goQuotedList, goQuoteRune } from './go-format.ts';
import type { CommandLine } from './json-form.ts';
import { shellOf, type HealthConfig, type RunConfig } from './run-config.ts';

const CONFIG_KINDS = ['env', 'label', 'maintainer', 'arg', 'user', 'volume', 'stopsignal', 'expose', 'onbuild', 'cmd', 'entrypoint', 'workdir', 'healthcheck', 'shell'] as const;

export type ConfigInstruction = Extract<Instruction, { kind: (typeof CONFIG_KINDS)[number] }>;

/** What the instructions of a stage change besides the config. */
export interface StageSettings<C extends RunConfig = RunConfig> {
  runConfig: C;
  /** MAINTAINER: the author of the images the stage commits */
  maintainer: string;
  /** a CMD was given in this stage: ENTRYPOINT keeps it */
  cmdSet: boolean;
}

export interface Substitution {
  word(text: string): string;
  words(text: string): string[];
}

/** What an instruction is applied with: the substitution of its words, the build's ARGs, where the builder's notes go. */
export interface InstructionContext {
  substitute: Substitution;
  args: BuildArgs;
  /** a line for the build's output (a commit's or an import's changes print none) */
  note(text: string): void;
}

const PROTOCOLS = new Set(['tcp', 'udp', 'sctp']);

export function isConfigInstruction(instruction: Instruction): instruction is ConfigInstruction {
  return (CONFIG_KINDS as readonly string[]).includes(instruction.kind);
}

/** Applies the instruction to the stage; returns the step's comment. */
export function applyConfigInstruction(instruction: ConfigInstruction, stage: StageSettings, { substitute, args, note }: InstructionContext): string {
  const config = stage.runConfig;
  switch (instruction.kind) {
    case 'env': {
      const pairs = instruction.pairs.map(({ key, value }) => `${substitute.word(key)}=${substitute.word(value)}`);
      for (const pair of pairs) setVariable(config, pair);
      return `ENV ${pairs.join(' ')}`;
    }
    case 'label': {
      const pairs = instruction.pairs.map(({ key, value }) => [substitute.word(key), substitute.word(value)] as const);
      for (const [key, value] of pairs) config.Labels[key] = value;
      return `LABEL ${pairs.map(([key, value]) => `${key}=${value}`).join(' ')}`;
    }
    case 'maintainer':
      stage.maintainer = instruction.maintainer;
      return `MAINTAINER ${instruction.maintainer}`;
    case 'arg': {
      const declared = instruction.args.map(({ key, value }) => ({ key: substitute.word(key), value: value === undefined ? undefined : substitute.word(value) }));
      for (const { key, value } of declared) args.declare(key, value);
      return `ARG ${declared.map(({ key, value }) => (value === undefined ? key : `${key}=${value}`)).join(' ')}`;
    }
    case 'user':
      config.User = substitute.word(instruction.user);
      return `USER ${config.User}`;
    case 'volume': {
      const volumes = instruction.volumes.map((volume) => substitute.word(volume));
      if (volumes.some((volume) => volume === '')) throw new InvalidParameterError('VOLUME specified can not be an empty string');
      config.Volumes ??= {};
      for (const volume of volumes) config.Volumes[volume] = {};
      return `VOLUME [${volumes.join(' ')}]`;
    }
    case 'stopsignal': {
      const signal = substitute.word(instruction.signal);
      checkSignal(signal);
      config.StopSignal = signal;
      return `STOPSIGNAL ${signal}`;
    }
    case 'expose': {
      const ports = instruction.ports.flatMap((port) => substitute.words(port));
      config.ExposedPorts ??= {};
      for (const port of ports.flatMap(portKeys)) config.ExposedPorts[port] = {};
      return `EXPOSE ${ports.join(' ')}`;
    }
    case 'onbuild':
      config.OnBuild = [...(config.OnBuild ?? []), instruction.expression];
      return `ONBUILD ${instruction.expression}`;
    case 'workdir': {
      const path = substitute.word(instruction.path);
      config.WorkingDir = posix.join('/', path.startsWith('/') ? '' : config.WorkingDir, path);
      return `WORKDIR ${config.WorkingDir}`;
    }
    case 'cmd':
      config.Cmd = commandArgv(instruction.command, config);
      stage.cmdSet ||= instruction.command.words.length > 0;
      return `CMD ${goQuotedList(config.Cmd)}`;
    case 'entrypoint':
      // an ENTRYPOINT with no command (`ENTRYPOINT`, `ENTRYPOINT []`) is none
      config.Entrypoint = instruction.command.words.length === 0 ? null : commandArgv(instruction.command, config);
      if (!stage.cmdSet) config.Cmd = null;
      return `ENTRYPOINT ${goQuotedList(config.Entrypoint)}`;
    case 'healthcheck': {
      const previous = config.Healthcheck?.Test;
      if (previous !== undefined && previous.length > 0 && previous[0] !== 'NONE') note(`Note: overriding previous HEALTHCHECK: [${previous.join(' ')}]\n`);
      config.Healthcheck = structuredClone(instruction.health);
      return `HEALTHCHECK ${goHealthConfig(instruction.health)}`;
    }
    case 'shell':
      config.Shell = [...instruction.shell];
      return `SHELL [${config.Shell.join(' ')}]`;
  }
}

/** A command as the process gets it: the shell form runs through the config's shell. */
export function commandArgv(command: CommandLine, config: Pick<RunConfig, 'Shell'>): string[] {
  return command.shell ? [...shellOf(config), ...command.words] : [...command.words];
}

/** ENV's rule: a variable already set is replaced where it stands. */
function setVariable(config: RunConfig, pair: string): void {
  const key = pair.slice(0, pair.indexOf('='));
  const index = config.Env.findIndex((entry) => entry.split('=', 1)[0] === key);
  if (index >= 0) config.Env[index] = pair;
  else config.Env.push(pair);
}

function checkSignal(signal: string): void {
  try {
    signalNumber(signal);
  } catch (error) {
    if (error instanceof UnknownSignalError) throw new InvalidParameterError(error.message);
    throw error;
  }
}

/** nat.ParsePortSpecs for EXPOSE: `port[/proto]` or `low-high[/proto]`, tcp by default (SplitProtoPort: what follows a second `/` is not read). */
function portKeys(spec: string): string[] {
  const [ports = '', given = ''] = spec.split('/');
  const protocol = ports === '' ? '' : given || 'tcp';
  if (!PROTOCOLS.has(protocol.toLowerCase())) throw new InvalidParameterError(`Invalid proto: ${protocol}`);
  const range = /^(\d+)(?:-(\d+))?$/.exec(ports);
  const low = Number(range?.[1]);
  const high = range?.[2] === undefined ? low : Number(range[2]);
  if (range === null || low > 65535 || high > 65535 || high < low) throw new InvalidParameterError(`Invalid containerPort: ${ports}`);
  return Array.from({ length: high - low + 1 }, (_, offset) => `${low + offset}/${protocol.toLowerCase()}`);
}

/** Go's `%q` of a *HealthConfig: `&{["CMD-SHELL" "true"] "30s" "0s" "0s" '\x03'}`. */
function goHealthConfig(health: HealthConfig): string {
  const durations = [health.Interval, health.Timeout, health.StartPeriod].map((nanoseconds) => goQuote(goDurationString(nanoseconds ?? 0)));
  return `&{${goQuotedList(health.Test)} ${durations.join(' ')} ${goQuoteRune(health.Retries ?? 0)}}`;
}
