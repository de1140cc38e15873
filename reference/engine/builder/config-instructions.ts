/**
 * The instructions that change only the image's config, with dockerd's effects and the comment each
 * records (builder/dockerfile/dispatchers.go): ENV replaces a variable where it stands or appends it,
 * ENTRYPOINT drops an inherited CMD, EXPOSE takes port specs, STOPSIGNAL must name a signal, and so
 * on. The comment is what the step's `#(nop)` command and the image's history show, with Go's
 * formatting of lists (`CMD ["sh" "-c"]` quoted, `VOLUME [/a /b]` bare).
 */
import type { ImageConfig } from '../model/images/image.ts';
import { InvalidParameterError } from '../model/common/errors.ts';
import { signalNumber, UnknownSignalError } from '../process/index.ts';
import type { BuildArgs } from './build-args.ts';
import type { CommandLine, Instruction } from './buildfile-instructions.ts';

export type ConfigInstruction = Extract<Instruction, { kind: 'env' | 'label' | 'maintainer' | 'arg' | 'user' | 'volume' | 'stopsignal' | 'expose' | 'onbuild' | 'cmd' | 'entrypoint' }>;

/** What the instructions of a stage change besides the config. */
export interface StageSettings {
  runConfig: ImageConfig;
  /** MAINTAINER: the author of the images the stage commits */
  maintainer: string;
  /** a CMD was given in this stage: ENTRYPOINT keeps it */
  cmdSet: boolean;
}

export interface Substitution {
  word(text: string): string;
  words(text: string): string[];
}

const PROTOCOLS = new Set(['tcp', 'udp', 'sctp']);

export function isConfigInstruction(instruction: Instruction): instruction is ConfigInstruction {
  return ['env', 'label', 'maintainer', 'arg', 'user', 'volume', 'stopsignal', 'expose', 'onbuild', 'cmd', 'entrypoint'].includes(instruction.kind);
}

/** Applies the instruction to the stage; returns the step's comment. */
export function applyConfigInstruction(instruction: ConfigInstruction, stage: StageSettings, substitute: Substitution, args: BuildArgs): string {
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
    case 'cmd':
      config.Cmd = commandArgv(instruction.command);
      stage.cmdSet ||= instruction.command.words.length > 0;
      return `CMD ${goQuotedList(config.Cmd)}`;
    case 'entrypoint':
      config.Entrypoint = commandArgv(instruction.command);
      if (!stage.cmdSet) config.Cmd = null;
      return `ENTRYPOINT ${goQuotedList(config.Entrypoint)}`;
  }
}

/** A command as the process gets it: the shell form runs through `/bin/sh -c`. */
export function commandArgv(command: CommandLine): string[] {
  return command.shell ? ['/bin/sh', '-c', ...command.words] : [...command.words];
}

/** ENV's rule: a variable already set is replaced where it stands. */
function setVariable(config: ImageConfig, pair: string): void {
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

/** nat.ParsePortSpecs for EXPOSE: `port[/proto]` or `low-high[/proto]`, tcp by default. */
function portKeys(spec: string): string[] {
  const [ports = '', protocol = 'tcp', ...rest] = spec.split('/');
  if (rest.length > 0 || !PROTOCOLS.has(protocol.toLowerCase())) throw new InvalidParameterError(`Invalid proto: ${protocol}`);
  const range = /^(\d+)(?:-(\d+))?$/.exec(ports);
  const low = Number(range?.[1]);
  const high = range?.[2] === undefined ? low : Number(range[2]);
  if (range === null || low > 65535 || high > 65535 || high < low) throw new InvalidParameterError(`Invalid containerPort: ${ports}`);
  return Array.from({ length: high - low + 1 }, (_, offset) => `${low + offset}/${protocol.toLowerCase()}`);
}

/** Go's `%q` of a []string: `["a" "b"]`. */
function goQuotedList(items: readonly string[] | null): string {
  return `[${(items ?? []).map(goQuote).join(' ')}]`;
}

/** strconv.Quote: `\a`-style escapes and `\x` for other control bytes, printable text as it is. */
function goQuote(text: string): string {
  const named: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', '"': '\\"' };
  const quoted = [...text].map((char) => named[char] ?? (isControl(char) ? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}` : char)).join('');
  return `"${quoted}"`;
}

function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}
