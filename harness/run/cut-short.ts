/**
 * A run cut short (Ctrl-C, SIGTERM, a target that went away) keeps what it has: this is how it says so,
 * in the line it prints, in each result it did not get, and in report.json's `cutShort`.
 */
import type { CutShort } from '../report/types.ts';
import type { RunningCheck, TargetLoss } from './target-watch.ts';

/** What every result an interrupted run did not get says. */
export const NOT_RUN_INTERRUPTED = 'not run: interrupted';

/** How each result a run cut short did not get begins. */
export const NOT_RUN = 'not run: ';

/** How the result of a check that was running when the target went away begins: what it saw follows. */
export const CUT_OFF = 'cut off: the target went away while this check ran; what it saw: ';

/** A result that tells of the cut, not of the target: the line that said why tells it once for all of them. */
export function tellsOfTheCut(message: string | undefined): boolean {
  return message !== undefined && (message.startsWith(NOT_RUN) || message.startsWith(CUT_OFF));
}

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** The reason a run's interrupt is aborted with: which signal came, and when. */
export class RunInterruption {
  constructor(
    readonly signal: StopSignal,
    readonly at: Date = new Date(),
  ) {}
}

/** `14:02:11`, the local time of day, as a person watching the run reads a clock. */
export function clockTime(date: Date): string {
  return date.toTimeString().slice(0, 8);
}

/** `during containers.logs.follow at 1.25`, or after the last check to report when none was running. */
function whenText(running: readonly RunningCheck[], lastFinished: RunningCheck | undefined): string {
  const [first] = running;
  if (first) return `during ${first.id} at ${first.version}`;
  return lastFinished ? `after ${lastFinished.id} at ${lastFinished.version}` : 'before any check reported';
}

function othersText(running: readonly RunningCheck[]): string {
  const others = running.length - 1;
  return others > 0 ? ` (and ${others} other check${others > 1 ? 's' : ''} running)` : '';
}

/** The report's `cutShort` for a target that went away, and the message of each result the run did not get. */
export function targetLostCut(loss: TargetLoss, lastFinished: RunningCheck | undefined): { cut: Omit<CutShort, 'notRun'>; notRunMessage: string } {
  const since = `target unreachable since ${clockTime(loss.at)}`;
  const when = whenText(loss.running, lastFinished);
  return {
    cut: { reason: 'target-unreachable', at: loss.at.toISOString(), cause: loss.cause, running: loss.running, message: `${since} (${loss.cause}), ${when}${othersText(loss.running)}` },
    notRunMessage: `${NOT_RUN}${since}, ${when}`,
  };
}

/** The report's `cutShort` for a run that SIGINT or SIGTERM stopped. */
export function interruptedCut(interruption: RunInterruption, running: RunningCheck[], lastFinished: RunningCheck | undefined): Omit<CutShort, 'notRun'> {
  const { signal, at } = interruption;
  return { reason: 'interrupted', at: at.toISOString(), signal, running, message: `interrupted by ${signal} at ${clockTime(at)}, ${whenText(running, lastFinished)}${othersText(running)}` };
}
