/**
 * The build file's lines as instructions, with dockerd's argument rules (buildkit's line parsers and
 * instructions/parse.go): the JSON form of RUN, CMD, ENTRYPOINT and SHELL (an array of strings) or
 * the shell form of the first three (the rest of the line; SHELL takes only JSON); ENV and LABEL as
 * `name=value` words (quotes kept for the substitution to remove) or the old `name value` form; COPY,
 * ADD and VOLUME as a JSON array or whitespace-separated words; HEALTHCHECK's own flags and forms
 * (healthcheck-instruction.ts); ONBUILD's trigger read as the parser reads a line, its rules left to
 * the build that runs it. The words are substituted later, when the instruction runs, with the
 * variables of that moment. Errors in how the arguments are written are the file's
 * (BuildfileSyntaxError), as with dockerd's parser; the rules of an instruction are the line's
 * (InstructionError). The same instructions are a commit's and an import's `changes`
 * (config-changes.ts).
 */
import { BuildfileSyntaxError, InstructionError, RuleError } from './buildfile-errors.ts';
import type { BuildfileLine, EscapeToken } from './buildfile-parser.ts';
import { parseHealthcheck } from './healthcheck-instruction.ts';
import { commandLine, jsonStrings, type CommandLine } from './json-form.ts';
import type { HealthConfig } from './run-config.ts';

export interface KeyValue {
  key: string;
  value: string;
}

export interface ArgDeclaration {
  key: string;
  /** the default, undefined when the ARG gives none */
  value?: string;
}

export type Instruction = { text: string; line: number } & (
  | { kind: 'from'; image: string }
  /** `buildKitFlag`: a flag only BuildKit runs (`--mount`), refused when the step runs */
  | { kind: 'run'; command: CommandLine; buildKitFlag?: string }
  | { kind: 'cmd' | 'entrypoint'; command: CommandLine }
  | { kind: 'copy' | 'add'; sources: string[]; dest: string }
  | { kind: 'env' | 'label'; pairs: KeyValue[] }
  | { kind: 'arg'; args: ArgDeclaration[] }
  | { kind: 'workdir'; path: string }
  | { kind: 'expose'; ports: string[] }
  | { kind: 'volume'; volumes: string[] }
  | { kind: 'user'; user: string }
  | { kind: 'onbuild'; expression: string }
  | { kind: 'stopsignal'; signal: string }
  | { kind: 'maintainer'; maintainer: string }
  | { kind: 'healthcheck'; health: HealthConfig }
  | { kind: 'shell'; shell: string[] }
);

export type FromInstruction = Extract<Instruction, { kind: 'from' }>;
export type ArgInstruction = Extract<Instruction, { kind: 'arg' }>;

/** One FROM and what follows it, up to the next FROM. */
export interface BuildStage {
  from: FromInstruction;
  instructions: Instruction[];
}

export interface BuildPlan {
  /** ARGs before the first FROM: they may be used in FROM lines */
  metaArgs: ArgInstruction[];
  stages: BuildStage[];
}

const WHITESPACE = /[\t\v\f\r ]+/;

/** The build file's instructions grouped by stage; InstructionError for the first that is malformed. */
export function planBuild(lines: readonly BuildfileLine[], escape: EscapeToken): BuildPlan {
  const metaArgs: ArgInstruction[] = [];
  const stages: BuildStage[] = [];
  for (const line of lines) {
    const instruction = parseInstruction(line, escape);
    if (instruction.kind === 'from') stages.push({ from: instruction, instructions: [] });
    else if (stages.length === 0 && instruction.kind === 'arg') metaArgs.push(instruction);
    else {
      const stage = stages.at(-1);
      if (stage === undefined) throw new InstructionError('no build stage in current context', line.line);
      stage.instructions.push(instruction);
    }
  }
  return { metaArgs, stages };
}

export function parseInstruction(line: BuildfileLine, escape: EscapeToken): Instruction {
  try {
    return instructionOf(line, escape);
  } catch (error) {
    if (error instanceof RuleError) throw new InstructionError(error.message, line.line);
    throw error;
  }
}

function instructionOf(line: BuildfileLine, escape: EscapeToken): Instruction {
  const base = { text: line.original, line: line.line };
  const name = line.keyword.toUpperCase();
  const flagName = (flag: string) => flag.replace(/^--/, '').replace(/=.*$/, '');
  // dockerd 20.10's parser knows RUN's --mount (BuildKit's); its classic builder refuses it at the step
  const buildKitFlag = line.keyword === 'run' ? line.flags.map(flagName).find((flag) => flag === 'mount') : undefined;
  const unknownFlag = line.flags.find((flag) => flagName(flag) !== buildKitFlag);
  // HEALTHCHECK reads its own flags (and NONE none at all)
  if (unknownFlag !== undefined && line.keyword !== 'healthcheck') throw new RuleError(`Unknown flag: ${flagName(unknownFlag)}`);
  switch (line.keyword) {
    case 'from': {
      const words = whitespaceWords(line.args);
      if (words.length !== 1 && words.length !== 3) throw new RuleError('FROM requires either one or three arguments');
      if (words.length === 3 && words[1]?.toLowerCase() !== 'as') throw new RuleError('When using 3 arguments with FROM, the second argument must be "AS"');
      return { ...base, kind: 'from', image: words[0] as string };
    }
    case 'run':
      return { ...base, kind: 'run', command: commandLine(line.args), ...(buildKitFlag !== undefined && { buildKitFlag }) };
    case 'cmd':
    case 'entrypoint':
      return { ...base, kind: line.keyword, command: commandLine(line.args) };
    case 'copy':
    case 'add': {
      const words = jsonOrWords(line.args);
      if (words.length < 2) throw new RuleError(`${name} requires at least two arguments, but only one was provided. Destination could not be determined`);
      return { ...base, kind: line.keyword, sources: words.slice(0, -1), dest: words.at(-1) as string };
    }
    case 'env':
    case 'label': {
      const pairs = nameValuePairs(line.args, name, escape);
      if (pairs.length === 0) throw new RuleError(`${name} requires at least one argument`);
      if (pairs.some((pair) => pair.key === '')) throw new RuleError(`${name} names can not be blank`);
      return { ...base, kind: line.keyword, pairs };
    }
    case 'arg': {
      const words = shellWords(line.args, escape);
      if (words.length === 0) throw new RuleError('ARG requires at least one argument');
      const args = words.map((word): ArgDeclaration => {
        const separator = word.indexOf('=');
        if (separator < 0) return { key: word };
        if (separator === 0) throw new RuleError('ARG names can not be blank');
        return { key: word.slice(0, separator), value: word.slice(separator + 1) };
      });
      return { ...base, kind: 'arg', args };
    }
    case 'workdir':
      return { ...base, kind: 'workdir', path: exactlyOne(line.args, name) };
    case 'user':
      return { ...base, kind: 'user', user: exactlyOne(line.args, name) };
    case 'stopsignal':
      return { ...base, kind: 'stopsignal', signal: exactlyOne(line.args, name) };
    case 'maintainer':
      return { ...base, kind: 'maintainer', maintainer: exactlyOne(line.args, name) };
    case 'expose': {
      const ports = whitespaceWords(line.args);
      if (ports.length === 0) throw new RuleError('EXPOSE requires at least one argument');
      // dockerd sorts the words as written, before their substitution
      return { ...base, kind: 'expose', ports: ports.sort() };
    }
    case 'volume': {
      const volumes = jsonOrWords(line.args);
      if (volumes.length === 0) throw new RuleError('VOLUME requires at least one argument');
      if (volumes.some((volume) => volume.trim() === '')) throw new RuleError('VOLUME specified can not be an empty string');
      return { ...base, kind: 'volume', volumes };
    }
    case 'onbuild':
      return { ...base, kind: 'onbuild', expression: onbuildExpression(line, escape) };
    case 'healthcheck':
      return { ...base, kind: 'healthcheck', health: parseHealthcheck(line.flags, line.args) };
    case 'shell': {
      const shell = jsonStrings(line.args.trim());
      if (shell === undefined && line.args.trim() !== '') throw new RuleError('SHELL requires the arguments to be in JSON form');
      if (shell === undefined || shell.length === 0) throw new RuleError('SHELL requires at least one argument');
      return { ...base, kind: 'shell', shell };
    }
    default:
      throw new RuleError(`unknown instruction: ${name}`);
  }
}

function exactlyOne(args: string, name: string): string {
  const value = args.trim();
  if (value === '') throw new RuleError(`${name} requires exactly one argument`);
  return value;
}

/**
 * ONBUILD's trigger: any instruction but ONBUILD, FROM and MAINTAINER, kept as written. Only what
 * dockerd's parser sees in the trigger's line is an error now (a JSON array of non-strings, ENV
 * without a value…); its rules (unknown instruction, flags, argument counts) are the business of the
 * build that runs it, as on dockerd.
 */
function onbuildExpression(line: BuildfileLine, escape: EscapeToken): string {
  const trigger = line.args.trim().split(WHITESPACE)[0]?.toUpperCase() ?? '';
  if (trigger === '') throw new RuleError('ONBUILD requires at least one argument');
  if (trigger === 'ONBUILD') throw new RuleError('Chaining ONBUILD via `ONBUILD ONBUILD` isn\'t allowed');
  if (trigger === 'FROM' || trigger === 'MAINTAINER') throw new RuleError(`${trigger} isn't allowed as an ONBUILD trigger`);
  const expression = line.original.replace(/^\s*ONBUILD\s*/i, '');
  try {
    instructionOf({ ...line, keyword: trigger.toLowerCase(), flags: [], args: expression.slice(trigger.length) }, escape);
  } catch (error) {
    if (!(error instanceof RuleError)) throw error;
  }
  return expression;
}

/** COPY, ADD, VOLUME: a JSON array of strings, else the words between whitespace. */
function jsonOrWords(args: string): string[] {
  return jsonStrings(args.trim()) ?? whitespaceWords(args);
}

function whitespaceWords(args: string): string[] {
  const trimmed = args.trim();
  return trimmed === '' ? [] : trimmed.split(WHITESPACE);
}

/**
 * ENV and LABEL: `name=value` words, or, when the first word has no `=`, the old form: a name, then
 * the rest of the line as its value.
 */
function nameValuePairs(args: string, name: string, escape: EscapeToken): KeyValue[] {
  const words = shellWords(args, escape);
  if (words.length === 0) return [];
  if (!(words[0] as string).includes('=')) {
    const trimmed = args.trim();
    const split = WHITESPACE.exec(trimmed);
    if (split === null) throw new BuildfileSyntaxError(`${name} must have two arguments`);
    return [{ key: trimmed.slice(0, split.index), value: trimmed.slice(split.index + split[0].length) }];
  }
  return words.map((word) => {
    const separator = word.indexOf('=');
    if (separator < 0) throw new BuildfileSyntaxError(`Syntax error - can't find = in ${JSON.stringify(word)}. Must be of the form: name=value`);
    return { key: word.slice(0, separator), value: word.slice(separator + 1) };
  });
}

/**
 * Words split at unquoted whitespace, quotes and escapes kept for the substitution (buildkit's
 * parseWords): inside single quotes the escape token is literal.
 */
function shellWords(text: string, escape: EscapeToken): string[] {
  const words: string[] = [];
  const chars = [...text];
  let word = '';
  let inWord = false;
  let blankOk = false;
  let quote: string | undefined;
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index] as string;
    if (quote === undefined && !inWord) {
      if (/\s/.test(char)) continue;
      inWord = true;
    }
    if (quote === undefined) {
      if (/\s/.test(char)) {
        if (blankOk || word.length > 0) words.push(word);
        word = '';
        blankOk = false;
        inWord = false;
        continue;
      }
      if (char === "'" || char === '"') {
        quote = char;
        blankOk = true;
      }
      if (char === escape) {
        if (index + 1 === chars.length) continue;
        word += char;
        index++;
        word += chars[index] as string;
        continue;
      }
      word += char;
      continue;
    }
    if (char === quote) quote = undefined;
    if (char === escape && quote !== "'") {
      if (index + 1 === chars.length) {
        quote = undefined;
        continue;
      }
      word += char;
      index++;
      word += chars[index] as string;
      continue;
    }
    word += char;
  }
  if (inWord && (blankOk || word.length > 0)) words.push(word);
  return words;
}
