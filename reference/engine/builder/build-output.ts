/**
 * What a build tells its client as it goes, in dockerd's pieces: every call is one message of the
 * answer's stream (dockerd writes `Step 1/4 : FROM busybox` and its newline as two), standard error
 * is told apart, downloads report progress. The HTTP layer decides how each looks on the wire.
 */
import { EngineError } from '../model/common/errors.ts';

export interface BuildOutput {
  /** the builder's own lines and the steps' standard output */
  stdout(text: string): void;
  /** a step's standard error */
  stderr(text: string): void;
  /**
   * A download's progress: `id` names what is downloaded (`''` for none), `action` what is done;
   * `total` 0 when unknown.
   */
  progress(id: string, action: string, current: number, total: number): void;
}

/** A RUN step's command ended with a non-zero exit code, which the error carries (errorDetail.code). */
export class StepFailedError extends EngineError {
  override name = 'StepFailedError';
  constructor(
    command: readonly string[],
    readonly code: number,
  ) {
    super(`The command '${command.join(' ')}' returned a non-zero code: ${code}`);
  }
}
