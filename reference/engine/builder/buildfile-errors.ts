/**
 * What is wrong with a build file, worded as dockerd words it. Both are refused before the build
 * starts (HTTP 400): the file as a whole (`failed to parse Dockerfile: …`), or one instruction
 * (`dockerfile parse error line N: …`).
 */
import { InvalidParameterError } from '../model/common/errors.ts';

/** The file cannot be read as instructions at all. */
export class BuildfileSyntaxError extends InvalidParameterError {
  override name = 'BuildfileSyntaxError';
}

/** One instruction is malformed; `reason` is the bare rule it breaks, for nesting (ONBUILD triggers). */
export class InstructionError extends InvalidParameterError {
  override name = 'InstructionError';
  constructor(
    readonly reason: string,
    readonly line: number,
  ) {
    super(`dockerfile parse error line ${line}: ${reason}`);
  }
}

/** A rule an instruction breaks, before the line number is known to go with it (parseInstruction makes it an InstructionError). */
export class RuleError extends Error {
  override name = 'RuleError';
}
