/**
 * What `GET /containers/{id}/top` shows: the container's processes as the host's `ps` with the
 * caller's `ps_args` prints them (default `-ef`), split into titles and rows the way dockerd splits
 * ps output. Pids are the host's, as on dockerd. Supported: UNIX options e, A, a, f and `o LIST`, BSD
 * options a, u, x; anything else fails as ps would.
 */
import type { ProcessTableRow } from '../../process/index.ts';
import { EngineError, InvalidParameterError } from '../common/errors.ts';

export interface ProcessListing {
  Titles: string[];
  Processes: string[][];
}

interface Column {
  title: string;
  value: (row: ProcessTableRow, now: Date) => string;
}

const pad = (value: number) => String(value).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** procps' start time: the hour today, else the day this year, else the year (host local time, as ps). */
function startTime(row: ProcessTableRow, now: Date): string {
  const started = row.startedAt;
  if (now.getTime() - started.getTime() < 24 * 3_600_000) return `${pad(started.getHours())}:${pad(started.getMinutes())}`;
  if (started.getFullYear() === now.getFullYear()) return `${MONTHS[started.getMonth()]}${pad(started.getDate())}`;
  return String(started.getFullYear());
}

/** [[dd-]hh:]mm:ss */
function elapsed(row: ProcessTableRow, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - row.startedAt.getTime()) / 1000));
  const [days, hours, minutes] = [Math.floor(seconds / 86_400), Math.floor(seconds / 3600) % 24, Math.floor(seconds / 60) % 60];
  const clock = `${pad(minutes)}:${pad(seconds % 60)}`;
  if (days > 0) return `${days}-${pad(hours)}:${clock}`;
  return hours > 0 ? `${pad(hours)}:${clock}` : clock;
}

const userName = (row: ProcessTableRow) => row.user || String(row.uid);
const command = (row: ProcessTableRow) => row.command;
const commandName = (row: ProcessTableRow) => (row.argv[0] ?? '').split('/').pop() ?? '';

/** `-o` keywords: title and value. Simulated processes use no CPU or memory to speak of. */
const KEYWORDS: Record<string, Column> = {
  pid: { title: 'PID', value: (row) => String(row.hostPid) },
  ppid: { title: 'PPID', value: (row) => String(row.hostPpid) },
  uid: { title: 'UID', value: (row) => String(row.uid) },
  user: { title: 'USER', value: userName },
  c: { title: 'C', value: () => '0' },
  stime: { title: 'STIME', value: startTime },
  start: { title: 'STARTED', value: startTime },
  etime: { title: 'ELAPSED', value: elapsed },
  tty: { title: 'TT', value: (row) => row.tty },
  time: { title: 'TIME', value: (row) => row.time },
  stat: { title: 'STAT', value: () => 'S' },
  '%cpu': { title: '%CPU', value: () => '0.0' },
  '%mem': { title: '%MEM', value: () => '0.0' },
  vsz: { title: 'VSZ', value: () => '0' },
  rss: { title: 'RSS', value: () => '0' },
  comm: { title: 'COMMAND', value: commandName },
  args: { title: 'COMMAND', value: command },
  command: { title: 'COMMAND', value: command },
  cmd: { title: 'CMD', value: command },
};

const keyword = (name: string, title?: string): Column => {
  const column = KEYWORDS[name];
  if (!column) throw psFailed();
  return title === undefined ? column : { ...column, title };
};

const FULL = ['UID:user', 'PID:pid', 'PPID:ppid', 'C:c', 'STIME:stime', 'TTY:tty', 'TIME:time', 'CMD:cmd'];
const BSD_USER = ['USER:user', 'PID:pid', '%CPU:%cpu', '%MEM:%mem', 'VSZ:vsz', 'RSS:rss', 'TTY:tty', 'STAT:stat', 'START:stime', 'TIME:time', 'COMMAND:command'];
const DEFAULT = ['PID:pid', 'TTY:tty', 'TIME:time', 'CMD:comm'];

function columnsOf(layout: string[]): Column[] {
  return layout.map((entry) => {
    const [title = '', name = ''] = entry.split(':');
    return keyword(name, title);
  });
}

/** dockerd runs ps and reports its failure so. */
function psFailed(): EngineError {
  return new EngineError('Error running ps: exit status 1');
}

function parseColumns(psArgs: string): Column[] {
  const words = psArgs.split(/\s+/).filter(Boolean);
  const custom: Column[] = [];
  let full = false;
  let bsdUser = false;
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string;
    const unix = word.startsWith('-');
    const letters = unix ? word.slice(1) : word;
    for (let at = 0; at < letters.length; at++) {
      const letter = letters[at] as string;
      if (unix && letter === 'o') {
        const list = letters.slice(at + 1) || words[++index];
        if (!list) throw psFailed();
        for (const item of list.split(',')) {
          const [name = '', title] = item.split('=');
          custom.push(keyword(name.toLowerCase(), title));
        }
        break;
      }
      if (unix && letter === 'f') full = true;
      else if (!unix && letter === 'u') bsdUser = true;
      else if (!'eAax'.includes(letter) || (unix && letter === 'x')) throw psFailed();
    }
  }
  if (custom.length > 0) return custom;
  return columnsOf(bsdUser ? BSD_USER : full ? FULL : DEFAULT);
}

/**
 * ps_args that ps refuses, or whose output has no PID column, are the client's mistake: 400 in
 * dockerd's words (it answers 500) naming the ps_args (issue 16).
 */
export function processListing(rows: ProcessTableRow[], psArgs: string, now: Date): ProcessListing {
  const refused = (message: string) => new InvalidParameterError(`${message} (ps_args ${JSON.stringify(psArgs)})`);
  let columns: Column[];
  try {
    columns = parseColumns(psArgs || '-ef');
  } catch (error) {
    throw error instanceof EngineError ? refused(error.message) : error;
  }
  const titles = columns.map((column) => column.title);
  if (!titles.includes('PID')) throw refused("Couldn't find PID field in ps output");
  return { Titles: titles, Processes: rows.map((row) => columns.map((column) => column.value(row, now))) };
}
