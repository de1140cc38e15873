/** `sleep` and `top`: the commands that take time. */
import { complain, parseOptions, usageError, type AppletUsage } from './applet-support.ts';
import type { Applet } from './program.ts';
import { BUSYBOX_FATAL_SIGNALS } from './signals.ts';

const SLEEP_USAGE: AppletUsage = {
  synopsis: 'sleep [N]...',
  summary: 'Pause for a time equal to the total of the args given, where each arg can\nhave an optional suffix of (s)econds, (m)inutes, (h)ours, or (d)ays',
};
const DURATION = /^(\d+\.?\d*|\.\d+)([smhd]?)$/;
const UNIT_MS: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `sleep N...`: the sum of the durations, decimals and s/m/h/d suffixes allowed. */
export const sleep: Applet = async (context) => {
  const args = context.argv.slice(1);
  if (args.length === 0) return usageError(context, SLEEP_USAGE);
  let total = 0;
  for (const arg of args) {
    const match = DURATION.exec(arg);
    if (!match) {
      complain(context, `sleep: invalid number '${arg}'`);
      return 1;
    }
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
  }
  await context.task.sleep(Math.round(total));
  return 0;
};

/**
 * `top` runs until it is stopped. It prints nothing: busybox top without a terminal repaints a
 * screen every few seconds, which would only bloat the logs checks read. Like busybox it catches
 * the fatal signals (to restore the terminal) and then dies of them, so as PID 1 it still stops on
 * SIGTERM, with exit code 143.
 */
export const top: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: '', unsupported: 'bcHmnsdo' }, { synopsis: 'top [-bmH] [-n COUNT] [-d SECONDS]', summary: 'Show a view of process activity in real time.' });
  if (typeof options === 'number') return options;
  const task = context.task;
  // installing a handler replaces an inherited "ignore"
  for (const signal of BUSYBOX_FATAL_SIGNALS) task.ignoredSignals.delete(signal);
  task.signalHandler = (signal) => {
    if (!BUSYBOX_FATAL_SIGNALS.has(signal)) return false;
    // busybox's kill_myself_with_sig: back to the default action and raise; if that does not kill
    // (PID 1), exit with 128 + the signal
    task.signalHandler = undefined;
    task.applyDefaultAction(signal);
    if (task.alive) task.exit(128 + signal);
    return true;
  };
  return task.waitForever();
};
