/**
 * Linux signal names and numbers (x86-64 and arm64 share them), parsed the way dockerd parses the
 * kill endpoint's `signal` and a container's StopSignal: a number, or a name with or without `SIG`,
 * in any case. Shared by the HTTP layer and the simulated processes.
 */

const NUMBERED: ReadonlyArray<readonly [string, number]> = [
  ['HUP', 1], ['INT', 2], ['QUIT', 3], ['ILL', 4], ['TRAP', 5], ['ABRT', 6], ['IOT', 6], ['BUS', 7],
  ['FPE', 8], ['KILL', 9], ['USR1', 10], ['SEGV', 11], ['USR2', 12], ['PIPE', 13], ['ALRM', 14],
  ['TERM', 15], ['STKFLT', 16], ['CHLD', 17], ['CLD', 17], ['CONT', 18], ['STOP', 19], ['TSTP', 20],
  ['TTIN', 21], ['TTOU', 22], ['URG', 23], ['XCPU', 24], ['XFSZ', 25], ['VTALRM', 26], ['PROF', 27],
  ['WINCH', 28], ['IO', 29], ['POLL', 29], ['PWR', 30], ['SYS', 31], ['UNUSED', 31],
];

export const SIGRTMIN = 34;
export const SIGRTMAX = 64;

/** The ones the processes themselves look at. */
export const SIGHUP = 1;
export const SIGINT = 2;
export const SIGQUIT = 3;
export const SIGKILL = 9;
export const SIGPIPE = 13;
export const SIGTERM = 15;

const BY_NAME = new Map<string, number>(NUMBERED);
// Real-time signals by the names dockerd knows: RTMIN, RTMIN+1 … RTMIN+15, RTMAX-14 … RTMAX-1, RTMAX.
BY_NAME.set('RTMIN', SIGRTMIN);
BY_NAME.set('RTMAX', SIGRTMAX);
for (let offset = 1; offset <= 15; offset++) {
  BY_NAME.set(`RTMIN+${offset}`, SIGRTMIN + offset);
  BY_NAME.set(`RTMAX-${offset}`, SIGRTMAX - offset);
}

/** The first name of each number in the table above is its canonical one (ABRT, not IOT). */
const CANONICAL = new Map<number, string>();
for (const [name, number] of NUMBERED) if (!CANONICAL.has(number)) CANONICAL.set(number, name);

export class UnknownSignalError extends Error {
  constructor(readonly spec: string | number) {
    super(`Invalid signal: ${spec}`);
    this.name = 'UnknownSignalError';
  }
}

/** `SIGKILL`, `kill`, `9` and 9 all give 9; anything else throws UnknownSignalError. */
export function signalNumber(spec: string | number): number {
  if (typeof spec === 'number') {
    if (Number.isInteger(spec) && spec >= 1 && spec <= SIGRTMAX) return spec;
    throw new UnknownSignalError(spec);
  }
  const text = spec.trim();
  if (/^\d+$/.test(text)) return signalNumber(Number(text));
  const upper = text.toUpperCase();
  const number = BY_NAME.get(upper.startsWith('SIG') ? upper.slice(3) : upper);
  if (number === undefined) throw new UnknownSignalError(spec);
  return number;
}

/** The canonical name with its `SIG` prefix: `signalName('term')` is `SIGTERM`, 34 is `SIGRTMIN`. */
export function signalName(spec: string | number): string {
  const number = signalNumber(spec);
  const classic = CANONICAL.get(number);
  if (classic !== undefined) return `SIG${classic}`;
  if (number === SIGRTMIN) return 'SIGRTMIN';
  if (number === SIGRTMAX) return 'SIGRTMAX';
  if (number > SIGRTMIN && number <= SIGRTMIN + 15) return `SIGRTMIN+${number - SIGRTMIN}`;
  if (number < SIGRTMAX && number >= SIGRTMAX - 15) return `SIGRTMAX-${SIGRTMAX - number}`;
  return `SIG${number}`; // 32 and 33: reserved by glibc, still deliverable
}

/**
 * What the kernel does with a signal nobody handles. `stop` and `continue` are job control, which the
 * simulation does not model (pause uses the freezer): they change nothing.
 */
export type DefaultAction = 'terminate' | 'ignore' | 'stop' | 'continue';

export function defaultActionOf(signal: number): DefaultAction {
  switch (signal) {
    case 17: // CHLD
    case 23: // URG
    case 28: // WINCH
      return 'ignore';
    case 18: // CONT
      return 'continue';
    case 19: // STOP
    case 20: // TSTP
    case 21: // TTIN
    case 22: // TTOU
      return 'stop';
    default:
      return 'terminate';
  }
}

/**
 * busybox's BB_FATAL_SIGS: the signals applets such as `top` catch to restore the terminal before
 * dying of them. A caught signal is not subject to PID 1's protection, so `top` as PID 1 still stops
 * on SIGTERM (exit 143) where `sleep` does not.
 */
export const BUSYBOX_FATAL_SIGNALS: ReadonlySet<number> = new Set([1, 2, 3, 6, 10, 12, 13, 14, 15, 24, 25, 26]);
