/**
 * The command that sends a recorded request again: `curl` with the method, headers and body the check
 * sent, at the target the report names (`--unix-socket` for a socket). Schemathesis prints one under
 * each failure; an implementer pastes it and sees the answer for themselves.
 */
import type { ExchangeRecord } from '../client/api-response.ts';
import type { Report } from './types.ts';

/** Where the served reference listens in the command for a report of the in-process one (`reference`, `reference:strict`). */
const SERVED_REFERENCE_SOCKET = '/tmp/shipshape.sock';
/** What a body the report does not keep (binary, or over its size limit) is read from. */
const BODY_FILE = 'body.bin';

/** One shell word, single-quoted unless it needs none. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

interface Destination {
  /** curl's flags that reach it: `--unix-socket PATH` */
  flags: string[];
  /** the URL the path is put after */
  base: string;
  /** comment lines to put first: how to have the target there */
  comments: string[];
}

function destination(target: Report['target'], exchange: ExchangeRecord): Destination {
  if (exchange.service) {
    const url = exchange.service === 'token' ? target.authUrl : target.accountsUrl;
    return url ? { flags: [], base: new URL(url).origin, comments: [] } : { flags: [], base: `$${exchange.service.toUpperCase()}_URL`, comments: [] };
  }
  if (target.kind === 'reference') {
    const personality = target.url.startsWith('reference:') ? ` --personality ${target.url.slice('reference:'.length)}` : '';
    return {
      flags: ['--unix-socket', SERVED_REFERENCE_SOCKET],
      base: 'http://localhost',
      comments: [`# the reference, served: shipshape serve --engine unix://${SERVED_REFERENCE_SOCKET} --dialect ${target.dialect}${personality}`],
    };
  }
  if (target.url.startsWith('unix://')) return { flags: ['--unix-socket', target.url.slice('unix://'.length)], base: 'http://localhost', comments: [] };
  if (target.url.startsWith('tcp://')) return { flags: [], base: `http://${target.url.slice('tcp://'.length)}`, comments: [] };
  return { flags: [], base: new URL(target.url).origin, comments: [] };
}

/** The request as a `curl` command line, continued over lines with `\`; comments first say what it cannot carry. */
export function reproduceCommand(target: Report['target'], exchange: ExchangeRecord): string {
  const { flags, base, comments } = destination(target, exchange);
  const sent = exchange.sent ?? {};
  const words: string[][] = [['curl', '--silent', '--show-error', '--include', ...flags]];
  if (exchange.mode) words.push(['--no-buffer']);
  if (exchange.method === 'HEAD') words.push(['--head']);
  else if (exchange.method !== 'GET' || sent.bodyBytes !== undefined) words.push(['--request', exchange.method]);
  for (const [name, value] of Object.entries(sent.headers ?? {})) words.push(['--header', `${name}: ${value}`]);
  const notes = [...comments];
  if (sent.body !== undefined) words.push(['--data-binary', sent.body]);
  else if (sent.bodyBytes !== undefined) {
    words.push(['--data-binary', `@${BODY_FILE}`]);
    notes.push(`# the ${sent.bodyBytes}-byte body (binary, or too long to keep) is not in the report: put it in ${BODY_FILE}`);
  }
  words.push([`${base}${exchange.path}`]);
  const command = words.map((group) => group.map(shellWord).join(' '));
  if (command.some((line) => line.includes('<masked>'))) notes.push('# <masked> stands for a credential the report does not keep: put yours in its place');
  if (exchange.mode === 'upgrade') notes.push('# the daemon hijacks the connection (101): curl shows the answer\'s head and the first bytes');
  return [...notes, command.join(' \\\n  ')].join('\n');
}
