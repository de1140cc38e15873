/**
 * The `changes` of a commit or an import: build file lines applied to a config, as dockerd's
 * BuildFromConfig does it. They are read as one build file (parser directives, continuations and
 * comments included); only the instructions that change the config are allowed (CMD, ENTRYPOINT,
 * ENV, EXPOSE, HEALTHCHECK, LABEL, ONBUILD, USER, VOLUME, WORKDIR — not SHELL nor STOPSIGNAL); each
 * is applied as a build applies it, its words substituted from the config's Env as it stands at that
 * line. The errors are dockerd's, without the line numbers a build gives them: the file's syntax
 * first, then a command that is not allowed, then an instruction's rules, then what applying them
 * finds. The given config is left as it is.
 */
import { InvalidParameterError } from '../model/common/errors.ts';
import { BuildArgs } from './build-args.ts';
import { InstructionError } from './buildfile-errors.ts';
import { parseInstruction, type Instruction } from './buildfile-instructions.ts';
import { parseBuildfile } from './buildfile-parser.ts';
import { applyConfigInstruction, isConfigInstruction, type StageSettings } from './config-instructions.ts';
import type { RunConfig } from './run-config.ts';
import { processWord, processWords } from './variable-substitution.ts';

const CHANGE_COMMANDS = new Set(['cmd', 'entrypoint', 'env', 'expose', 'healthcheck', 'label', 'onbuild', 'user', 'volume', 'workdir']);

/** The config with the changes applied (a copy); InvalidParameterError, in dockerd's words, for a change it refuses. */
export function applyConfigChanges<C extends RunConfig>(config: C, changes: readonly string[]): C {
  const changed = structuredClone(config);
  if (changes.length === 0) return changed;
  const { lines, escape } = parseBuildfile(changes.join('\n'));
  // every line is parsed first: a syntax error anywhere is the answer, whatever the lines' commands
  const parsed = lines.map((line): Instruction | InstructionError => {
    try {
      return parseInstruction(line, escape);
    } catch (error) {
      if (error instanceof InstructionError) return error;
      throw error;
    }
  });
  for (const line of lines) {
    if (!CHANGE_COMMANDS.has(line.keyword)) throw new InvalidParameterError(`${line.keyword} is not a valid change command`);
  }
  const instructions = parsed.map((instruction) => {
    if (instruction instanceof InstructionError) throw new InvalidParameterError(instruction.reason);
    if (!isConfigInstruction(instruction)) throw new InvalidParameterError(`${instruction.kind} is not a valid change command`);
    return instruction;
  });
  const stage: StageSettings<C> = { runConfig: changed, maintainer: '', cmdSet: false };
  const args = new BuildArgs(new Map());
  for (const instruction of instructions) {
    const env = [...changed.Env];
    const substitute = { word: (text: string) => processWord(text, env, escape), words: (text: string) => processWords(text, env, escape) };
    applyConfigInstruction(instruction, stage, { substitute, args, note: () => undefined });
  }
  return changed;
}
