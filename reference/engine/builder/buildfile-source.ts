/**
 * Finding and reading the build file, as dockerd's remotecontext does: at the path the request gives
 * (default: the dialect's name) in the context, or the lowercase name when the default is missing;
 * an empty one or one that does not parse is refused before the build starts. The context then
 * loses the build file and `.dockerignore` when `.dockerignore` names them — the only files the
 * engine itself leaves out (the client applies the rest of `.dockerignore` before sending).
 */
import { EngineError, InvalidParameterError } from '../model/common/errors.ts';
import type { BuildContext } from './build-context.ts';
import { BuildfileSyntaxError } from './buildfile-errors.ts';
import { planBuild, type BuildPlan } from './buildfile-instructions.ts';
import { parseBuildfile, TooManyInstructionsError, type EscapeToken } from './buildfile-parser.ts';
import { isIgnored, parseDockerignore } from './dockerignore.ts';

export interface ReadBuildfile {
  plan: BuildPlan;
  escape: EscapeToken;
}

const DOCKERIGNORE = '.dockerignore';

/**
 * The most instructions a build file may have (README, Limits). Each step makes an image whose
 * config holds everything the steps before it set, so a build's work and memory grow with the
 * square of its length: 2 000 LABEL lines took 1 GB and two minutes. dockerd sets no such limit.
 */
export const MAX_BUILD_INSTRUCTIONS = 500;

/**
 * @param path where the request says the build file is ('' for the default)
 * @param defaultName the dialect's build file name: `Dockerfile`, `Buildfile`
 */
export function buildfileFromContext(context: BuildContext, path: string, defaultName: string): ReadBuildfile {
  const wanted = path === '' ? defaultName : path;
  const found = [wanted, ...(wanted === defaultName ? [defaultName.toLowerCase()] : [])].find((candidate) => context.readFile(candidate) !== undefined);
  if (found === undefined) throw new EngineError(`Cannot locate specified ${defaultName}: ${wanted}`);
  const read = readBuildfile(context.readFile(found) as Buffer, found, defaultName);
  const ignore = context.readFile(DOCKERIGNORE);
  if (ignore !== undefined) {
    const patterns = parseDockerignore(ignore.toString('utf8'));
    for (const file of [DOCKERIGNORE, found]) if (isIgnored(file, patterns)) context.exclude(file);
  }
  return read;
}

/** A build file's text (from the context, or a remote single file) as a build plan. */
export function readBuildfile(bytes: Buffer, name: string, defaultName: string): ReadBuildfile {
  if (bytes.length === 0) throw new InvalidParameterError(`the ${defaultName} (${name}) cannot be empty`);
  try {
    const { escape, lines } = parseBuildfile(bytes.toString('utf8'), MAX_BUILD_INSTRUCTIONS);
    return { plan: planBuild(lines, escape), escape };
  } catch (error) {
    if (error instanceof TooManyInstructionsError) {
      throw new InvalidParameterError(`the ${defaultName} (${name}) has more than ${MAX_BUILD_INSTRUCTIONS} instructions: the reference builds at most ${MAX_BUILD_INSTRUCTIONS} (each step's image holds all the config before it)`);
    }
    if (error instanceof BuildfileSyntaxError) throw new BuildfileSyntaxError(`failed to parse ${name}: ${error.message}`);
    throw error;
  }
}
