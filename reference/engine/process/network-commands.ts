/**
 * `nslookup` and `ping`: the names a container resolves and the addresses it reaches, as busybox 1.35
 * prints them. nslookup asks the first nameserver of /etc/resolv.conf and nothing else (busybox's
 * does not read /etc/hosts); ping resolves as getaddrinfo does: an address as it is, then /etc/hosts,
 * then that nameserver. No packet leaves: the container's NetworkView says what answers.
 */
import { complain, parseOptions, say, usageError, type AppletUsage } from './applet-support.ts';
import type { Applet, DnsAnswer, ProgramContext } from './program.ts';

const NSLOOKUP_USAGE: AppletUsage = { synopsis: 'nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]', summary: 'Query DNS about HOST' };
const PING_USAGE: AppletUsage = { synopsis: 'ping [OPTIONS] HOST', summary: 'Send ICMP ECHO_REQUEST packets to network hosts' };
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
/** a reply's round trip, as busybox prints it */
const ROUND_TRIP = '0.080';
const PING_INTERVAL_MS = 1000;

function fileText(context: ProgramContext, path: string): string {
  try {
    return context.fs.readFile(path).toString('utf8');
  } catch {
    return '';
  }
}

/** The first nameserver of /etc/resolv.conf; glibc's and busybox's default is the local one. */
function nameserverOf(context: ProgramContext): string {
  for (const line of fileText(context, '/etc/resolv.conf').split('\n')) {
    const [keyword, address] = line.trim().split(/\s+/);
    if (keyword === 'nameserver' && address) return address;
  }
  return '127.0.0.1';
}

/** The first IPv4 address /etc/hosts gives `name` (names match in any case). */
function hostsAddress(context: ProgramContext, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const line of fileText(context, '/etc/hosts').split('\n')) {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (address && IPV4.test(address) && names.some((candidate) => candidate.toLowerCase() === wanted)) return address;
  }
  return undefined;
}

/** `nslookup HOST [SERVER]`: the A record from the server; 1 when it has none or cannot be reached. */
export const nslookup: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: '' }, NSLOOKUP_USAGE);
  if (typeof options === 'number') return options;
  const [name, given] = options.operands;
  if (name === undefined || options.operands.length > 2) return usageError(context, NSLOOKUP_USAGE);
  const server = given ?? nameserverOf(context);
  const answer: DnsAnswer = context.network.askDns(server, name);
  if (answer.kind === 'unreachable') {
    say(context, ';; connection timed out; no servers could be reached\n\n');
    return 1;
  }
  say(context, `Server:\t\t${server}\nAddress:\t${server}:53\n\n`);
  if (answer.kind === 'no-such-name') {
    say(context, `** server can't find ${name}: NXDOMAIN\n\n** server can't find ${name}: NXDOMAIN\n\n`);
    return 1;
  }
  // the A query answers; the AAAA one, asked too, has nothing (no container has an IPv6 address here)
  say(context, `Non-authoritative answer:\nName:\t${name}\nAddress: ${answer.address}\n\nNon-authoritative answer:\n\n`);
  return 0;
};

/** getaddrinfo's order: an address, /etc/hosts, the nameserver. */
function resolveHost(context: ProgramContext, host: string): string | undefined {
  if (IPV4.test(host)) return host;
  const listed = hostsAddress(context, host);
  if (listed !== undefined) return listed;
  const answer = context.network.askDns(nameserverOf(context), host);
  return answer.kind === 'address' ? answer.address : undefined;
}

/** `ping [-c COUNT] [-W SECONDS] HOST`: one echo a second; 0 when any was answered. */
export const ping: Applet = async (context) => {
  const options = parseOptions(context, context.argv.slice(1), { supported: 'cWq', unsupported: '46AsIiwtnvp', withValue: 'cW' }, PING_USAGE);
  if (typeof options === 'number') return options;
  const [host] = options.operands;
  if (host === undefined || options.operands.length > 1) return usageError(context, PING_USAGE);
  const count = Number(options.values.get('c')?.at(-1) ?? 0);
  const waitS = Number(options.values.get('W')?.at(-1) ?? 10);
  const quiet = options.flags.has('q');
  const address = resolveHost(context, host);
  if (address === undefined) {
    complain(context, `ping: bad address '${host}'`);
    return 1;
  }
  say(context, `PING ${host} (${address}): 56 data bytes\n`);
  const answers = context.network.answersPing(address);
  let sent = 0;
  for (; count === 0 || sent < count; sent++) {
    if (sent > 0) await context.task.sleep(PING_INTERVAL_MS);
    if (answers && !quiet) say(context, `64 bytes from ${address}: seq=${sent} ttl=64 time=${ROUND_TRIP} ms\n`);
  }
  // with no answer, busybox waits out -W for the last echo before it sums up
  if (!answers) await context.task.sleep(waitS * 1000);
  const received = answers ? sent : 0;
  const loss = Math.round(((sent - received) * 100) / Math.max(sent, 1));
  say(context, `\n--- ${host} ping statistics ---\n${sent} packets transmitted, ${received} packets received, ${loss}% packet loss\n`);
  if (received > 0) say(context, `round-trip min/avg/max = ${ROUND_TRIP}/${ROUND_TRIP}/${ROUND_TRIP} ms\n`);
  return received > 0 ? 0 : 1;
};
