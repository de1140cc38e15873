/**
 * `uname` and `uptime`: what a container learns of the kernel it shares with the host (this machine's),
 * printed as busybox 1.35 prints it. The node name is the container's hostname; the time of day is UTC,
 * a container's default zone.
 */
import os from 'node:os';
import { parseOptions, say, type AppletUsage } from './applet-support.ts';
import type { Applet } from './program.ts';

const UNAME_USAGE: AppletUsage = { synopsis: 'uname [-amnrspvio]', summary: 'Print system information' };
const UPTIME_USAGE: AppletUsage = { synopsis: 'uptime', summary: 'Display the time since the last boot' };

/** `uname [-asnrvm]`: the fields asked for, in the kernel's order; `-s` alone by default. */
export const uname: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 'asnrvm', unsupported: 'pio' }, UNAME_USAGE);
  if (typeof options === 'number') return options;
  const fields: [flag: string, value: string][] = [
    ['s', 'Linux'],
    ['n', context.hostname],
    ['r', os.release()],
    ['v', os.version()],
    ['m', os.machine()],
  ];
  const all = options.flags.has('a');
  const asked = fields.filter(([flag]) => all || options.flags.has(flag));
  const shown = asked.length > 0 ? asked : fields.slice(0, 1);
  say(context, `${shown.map(([, value]) => value).join(' ')}${all ? ' GNU/Linux' : ''}\n`);
  return 0;
};

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** `uptime`: the time of day, how long the host has been up, and its load averages. */
export const uptime: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: '' }, UPTIME_USAGE);
  if (typeof options === 'number') return options;
  const now = new Date();
  const upMinutes = Math.floor(os.uptime() / 60);
  const days = Math.floor(upMinutes / 1440);
  const hours = Math.floor((upMinutes % 1440) / 60);
  const minutes = upMinutes % 60;
  const since = `${days > 0 ? `${days} day${days === 1 ? '' : 's'}, ` : ''}${hours > 0 ? `${String(hours).padStart(2)}:${twoDigits(minutes)}` : `${minutes} min`}`;
  const load = os.loadavg().map((value) => value.toFixed(2)).join(', ');
  say(context, ` ${twoDigits(now.getUTCHours())}:${twoDigits(now.getUTCMinutes())}:${twoDigits(now.getUTCSeconds())} up ${since},  0 users,  load average: ${load}\n`);
  return 0;
};
