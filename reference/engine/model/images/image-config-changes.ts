/**
 * The `changes` of an import or a commit: Dockerfile lines applied to the new image's config, as
 * dockerd's BuildFromConfig does — only the instructions that change the config (CMD, ENTRYPOINT,
 * ENV, EXPOSE, HEALTHCHECK, LABEL, ONBUILD, USER, VOLUME, WORKDIR) are allowed, variables are
 * replaced from the config's Env as it stands at each line, and every mistake is refused before
 * anything else happens.
 */
import { posix } from 'node:path';
import { InvalidParameterError } from '../common/errors.ts';
import { expandWord, splitWords } from './image-change-words.ts';
import { parseHealthcheck } from './image-healthcheck.ts';
import type { ImageConfig } from './image.ts';

const SHELL = ['/bin/sh', '-c'];

interface Line {
  /** lower case */
  instruction: string;
  /** the rest of the line, trimmed */
  args: string;
}

type Dispatch = (config: ImageConfig, line: Line, state: { cmdSet: boolean }) => void;

const DISPATCH: Record<string, Dispatch> = {
  cmd: (config, { args }, state) => {
    config.Cmd = execForm(args) ?? [...SHELL, ...(args === '' ? [] : [args])];
    state.cmdSet = true;
  },
  entrypoint: (config, { args }, state) => {
    config.Entrypoint = execForm(args) ?? (args === '' ? null : [...SHELL, args]);
    // an entrypoint drops the inherited command, unless these changes set one
    if (!state.cmdSet) config.Cmd = null;
  },
  env: (config, line) => {
    for (const [key, value] of nameValuePairs(line, config.Env)) {
      const entry = `${key}=${value}`;
      const index = config.Env.findIndex((existing) => existing.slice(0, existing.indexOf('=')) === key);
      if (index >= 0) config.Env[index] = entry;
      else config.Env.push(entry);
    }
  },
  expose: (config, line) => {
    const ports = { ...config.ExposedPorts };
    for (const spec of expandedWords(line, config.Env)) for (const port of exposedPorts(spec)) ports[port] = {};
    config.ExposedPorts = ports;
  },
  healthcheck: (config, line) => {
    requireArguments(line);
    config.Healthcheck = parseHealthcheck(line.args);
  },
  label: (config, line) => {
    config.Labels = { ...config.Labels, ...Object.fromEntries(nameValuePairs(line, config.Env)) };
  },
  onbuild: (config, line) => {
    requireArguments(line);
    const trigger = (line.args.split(/\s+/)[0] ?? '').toUpperCase();
    if (trigger === 'ONBUILD') throw new InvalidParameterError('Chaining ONBUILD via `ONBUILD ONBUILD` isn\'t allowed');
    if (trigger === 'FROM' || trigger === 'MAINTAINER') throw new InvalidParameterError(`${trigger} isn't allowed as an ONBUILD trigger`);
    config.OnBuild = [...(config.OnBuild ?? []), line.args];
  },
  user: (config, line) => {
    config.User = singleArgument(line, config.Env);
  },
  volume: (config, line) => {
    const paths = execForm(line.args) ?? expandedWords(line, config.Env);
    if (paths.length === 0) requireArguments({ ...line, args: '' });
    const volumes = { ...config.Volumes };
    for (const path of paths) {
      if (path.trim() === '') throw new InvalidParameterError('VOLUME specified can not be an empty string');
      volumes[path.trim()] = {};
    }
    config.Volumes = volumes;
  },
  workdir: (config, line) => {
    if (line.args === '') throw new InvalidParameterError('WORKDIR requires exactly one argument');
    const path = expandWord(line.args, config.Env);
    config.WorkingDir = posix.join(posix.isAbsolute(path) ? '/' : config.WorkingDir || '/', path);
  },
};

/** The config with the changes applied (the given one is left as it is). Throws InvalidParameterError as dockerd words it. */
export function applyConfigChanges(config: ImageConfig, changes: readonly string[]): ImageConfig {
  const lines = dockerfileLines(changes.join('\n'));
  for (const line of lines) {
    if (!(line.instruction in DISPATCH)) throw new InvalidParameterError(`${line.instruction} is not a valid change command`);
  }
  const changed = structuredClone(config);
  const state = { cmdSet: false };
  for (const line of lines) DISPATCH[line.instruction]?.(changed, line, state);
  return changed;
}

/** Lines of a Dockerfile: comments and blank lines dropped, a trailing backslash continues a line. */
function dockerfileLines(text: string): Line[] {
  const joined = text.replace(/\\\r?\n/g, '');
  return joined
    .split(/\r?\n/)
    .map((raw) => raw.trim())
    .filter((raw) => raw !== '' && !raw.startsWith('#'))
    .map((raw) => {
      const instruction = raw.split(/\s+/)[0] ?? '';
      return { instruction: instruction.toLowerCase(), args: raw.slice(instruction.length).trim() };
    });
}

/** `["a", "b"]`: the JSON (exec) form; anything else is the shell form. */
function execForm(args: string): string[] | undefined {
  if (!args.startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(args);
    return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function requireArguments(line: Line): void {
  if (line.args === '') throw new InvalidParameterError(`${line.instruction.toUpperCase()} requires at least one argument`);
}

function expandedWords(line: Line, env: readonly string[]): string[] {
  requireArguments(line);
  return splitWords(line.args).map((word) => expandWord(word, env));
}

function singleArgument(line: Line, env: readonly string[]): string {
  const words = splitWords(line.args);
  if (words.length !== 1) throw new InvalidParameterError(`${line.instruction.toUpperCase()} requires exactly one argument`);
  return expandWord(words[0] as string, env);
}

/** ENV and LABEL: `key=value …`, or the older `key value with spaces`. */
function nameValuePairs(line: Line, env: readonly string[]): Array<[string, string]> {
  requireArguments(line);
  const name = line.instruction.toUpperCase();
  const words = splitWords(line.args);
  const first = words[0] as string;
  if (!first.includes('=')) {
    const value = line.args.slice(line.args.indexOf(first) + first.length).trim();
    if (value === '') throw new InvalidParameterError(`${name} must have two arguments`);
    return [[expandWord(first, env), expandWord(value, env)]];
  }
  return words.map((word) => {
    const separator = word.indexOf('=');
    if (separator < 0) throw new InvalidParameterError(`Syntax error - can't find = in ${JSON.stringify(word)}. Must be of the form: name=value`);
    return [expandWord(word.slice(0, separator), env), expandWord(word.slice(separator + 1), env)];
  });
}

/** `80`, `80/udp`, `8000-8002/tcp` as the `port/proto` keys of ExposedPorts. */
function exposedPorts(spec: string): string[] {
  const [range = '', proto = 'tcp'] = spec.split('/');
  const match = /^(\d+)(?:-(\d+))?$/.exec(range);
  const start = Number(match?.[1]);
  const end = match?.[2] === undefined ? start : Number(match[2]);
  if (!match || start > 65535 || end > 65535) throw new InvalidParameterError(`Invalid containerPort: ${range}`);
  if (end < start) throw new InvalidParameterError(`Invalid range specified for the Port: ${range}`);
  return Array.from({ length: end - start + 1 }, (_, offset) => `${start + offset}/${proto.toLowerCase()}`);
}
