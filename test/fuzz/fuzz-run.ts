/**
 * One fuzz run: `shipshape serve` as a child process, a few objects created so paths can name
 * things that exist, then `count` requests from fast-check (seeded) with `concurrency` in flight,
 * while a prober asks the engine's `/_ping` every 250 ms and the child's memory is sampled. A
 * request's fast-check path is its index: `FUZZ_SEED=<seed> FUZZ_PATH=<index> FUZZ_COUNT=1`
 * replays it. If the child dies, the requests in flight are recorded and a new child is started
 * (the run goes on, so one crash does not hide the rest); the run stops after a few.
 */
import http from 'node:http';
import fc from 'fast-check';
import { fuzzRequest, SEEDED, type FuzzRequest } from './fuzz-requests.ts';
import { cpuSecondsOf, memoryOf, startServe as startServeProcess, type ServeProcess } from './serve-process.ts';
import { listsOnly500, readSpecEndpoints, type SpecEndpoint } from './spec-endpoints.ts';
import { isStateConflict, versionOf } from './state-conflicts.ts';

export interface FuzzOptions {
  seed: number;
  count: number;
  /** replay from this fast-check path (a request's index) */
  path?: string;
  concurrency: number;
  /** a request not answered (whole body, or headers for a stream) by then has hung */
  deadlineMs: number;
  /** the run stops generating after this long */
  timeLimitMs: number;
  /** the child's resident set must be under this after the run */
  rssBoundMb: number;
  root: string;
  log?: (line: string) => void;
}

/** A request as a line: method, server, path and body, cut to stay readable. */
export interface RequestLine {
  index: number;
  line: string;
}

export interface FiveHundredClass {
  endpoint: string;
  status: number;
  message: string;
  /** the spec's row lists only 500 for this endpoint, or the request came in a state the row has no 4xx for */
  allowed: boolean;
  count: number;
  example: RequestLine;
}

export interface FuzzSummary {
  seed: number;
  sent: number;
  seconds: number;
  requestsPerSecond: number;
  interrupted: boolean;
  statuses: Record<string, number>;
  /** statuses per endpoint (the inventory's id, or `odd`) */
  byEndpoint: Record<string, Record<string, number>>;
  /** each death of the child: how it exited and the requests sent last before it */
  crashes: Array<{ afterRequests: number; exit: string; stderrTail: string; lastSent: RequestLine[] }>;
  hangs: RequestLine[];
  /** requests the spec lets block (wait, stop with a long timeout, an attach) that were still waiting at the deadline */
  blocked: number;
  /** uploads that stalled halfway and that the server ended (an answer, or the connection closed) */
  stalledEnded: number;
  /** connections the server closed without an answer */
  closed: Array<RequestLine & { error: string }>;
  fiveHundreds: FiveHundredClass[];
  /** a miss: a ping answered after more than 1 s, when, and how many requests had been sent by then */
  pings: { count: number; maxMs: number; misses: Array<{ atSeconds: number; ms: number; afterRequests: number }> };
  /** the child's resident set (MB): at start, its peak (and how many requests had been sent when it was reached), after the run */
  memory: { startMb: number; peakMb: number; peakAfterRequests: number; afterMb: number; boundMb: number; jumps: MemoryJump[] };
  /** CPU seconds used during the run by the serve child (the last one) and by this process (generating and sending) */
  cpuSeconds: { serve: number; client: number };
}

/** The peak grew by {@link JUMP_MB} or more between two samples: the requests sent last are the suspects. */
export interface MemoryJump {
  afterRequests: number;
  fromMb: number;
  toMb: number;
  sentLast: RequestLine[];
}

const JUMP_MB = 64;
/** jumps recorded per run: the first ones say what grows */
const MAX_JUMPS = 10;

/** Endpoints that stream: once the headers are in, the answer is good whatever follows. */
const STREAMS = /^1:(GET \/events|GET \/containers\/\{id_or_name\}\/(stats|logs|attach\/ws)|POST \/containers\/\{id_or_name\}\/attach|POST \/exec\/\{id\}\/start)$|^2:GET \/events$/;
/**
 * Endpoints the spec lets wait before they answer at all (a running container's wait, a stop's timeout, an attach, a follow),
 * and an exec's resize, which waits up to 10 s for the exec to start, as dockerd waits.
 */
const MAY_BLOCK = /^1:(POST \/containers\/\{id_or_name\}\/(wait|stop|restart|attach|kill)|GET \/containers\/\{id_or_name\}\/(attach\/ws|logs|stats)|POST \/exec\/\{id\}\/(start|resize))$|^2:GET \/events$/;

type Outcome =
  | { kind: 'answered'; status: number; body: string }
  | { kind: 'hang' | 'blocked' }
  | { kind: 'closed'; error: string }
  | { kind: 'refused' };

function describe(index: number, request: FuzzRequest, url: string): RequestLine {
  const cut = (text: string, length: number) => (text.length > length ? `${text.slice(0, length)}…(${text.length} chars)` : text);
  const body = request.body === undefined ? '' : ` body ${cut(JSON.stringify(request.body.subarray(0, 200).toString('latin1')), 160)}${request.body.length > 200 ? `…(${request.body.length} bytes)` : ''}`;
  const headers = Object.keys(request.headers).length > 0 ? ` headers ${cut(JSON.stringify(request.headers), 120)}` : '';
  return { index, line: `${request.method} ${request.server} ${url.replace(/^http:\/\/[^/]+/, '')}${headers}${body}`.replace(/^(\S+ \S+ )(\S{200})\S+/, '$1$2…') };
}

/** A fresh connection for each request: where a kept-alive one was reset under a request, it is sent again on one of these. */
const FRESH_CONNECTIONS = new http.Agent({ keepAlive: false });

function send(request: FuzzRequest, url: string, agent: http.Agent, deadlineMs: number): Promise<Outcome> {
  const stream = STREAMS.test(request.endpoint);
  const mayBlock = MAY_BLOCK.test(request.endpoint) || request.headers.Upgrade !== undefined;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome | Promise<Outcome>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
      outgoing.destroy();
    };
    let headersIn = false;
    const timer = setTimeout(() => settle({ kind: headersIn && stream ? 'answered' : mayBlock && !headersIn ? 'blocked' : 'hang', ...(headersIn && stream && { status: 200, body: '' }) } as Outcome), deadlineMs);
    let outgoing: http.ClientRequest;
    try {
      outgoing = http.request(url, { method: request.method, headers: { ...request.headers, ...(request.body && { 'Content-Length': String(request.body.length) }) }, agent });
    } catch (error) {
      // the client refuses to send it (a path Node will not write): nothing reached the server
      clearTimeout(timer);
      resolve({ kind: 'answered', status: 0, body: (error as Error).message });
      return;
    }
    outgoing.on('response', (response) => {
      headersIn = true;
      const status = response.statusCode ?? 0;
      let body = '';
      response.on('data', (chunk: Buffer) => {
        if (body.length < 2000) body += chunk.toString('utf8');
      });
      response.on('end', () => settle({ kind: 'answered', status, body }));
      response.on('error', () => settle(stream ? { kind: 'answered', status, body } : { kind: 'closed', error: 'body cut' }));
      // a stream's headers are its answer; its body may go on for as long as the container runs
      if (stream) setTimeout(() => settle({ kind: 'answered', status, body }), 300);
    });
    outgoing.on('upgrade', (response, socket) => {
      socket.destroy();
      settle({ kind: 'answered', status: response.statusCode ?? 101, body: '' });
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // a kept-alive connection the server closed as this request went out: the request never reached it (Node's advice: send it again)
      if (error.code === 'ECONNRESET' && outgoing.reusedSocket && !headersIn) settle(send(request, url, FRESH_CONNECTIONS, deadlineMs));
      else settle(error.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'closed', error: error.code ?? error.message });
    });
    if (request.stallAfter === undefined) outgoing.end(request.body);
    else outgoing.write(request.body?.subarray(0, request.stallAfter) ?? '');
  });
}

/** The message of an error answer: the engine's `message`, the token service's `error_description`, else the text. */
function messageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const message = parsed.message ?? parsed.error_description ?? parsed.detail ?? parsed.error;
    if (typeof message === 'string') return message;
  } catch {
    // not JSON
  }
  return body;
}

/** A message with its variable parts (ids, numbers, quoted values) blanked, so one cause is one class. */
function messageClass(message: string): string {
  return message
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/[0-9a-f]{12,}/g, 'ID')
    .replace(/\d+/g, 'N')
    .slice(0, 100);
}

async function call(url: string, method: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const answer = await fetch(url, { method, ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  const text = await answer.text();
  return { status: answer.status, json: text ? (JSON.parse(text) as unknown) : undefined };
}

/** The image the objects are made from, as `docker save` writes it, taken from a child that has not been fuzzed. */
async function savedImage(engine: string): Promise<Buffer> {
  const answer = await fetch(`${engine}/v1.25/images/${SEEDED.image}/get`);
  if (answer.status !== 200) throw new Error(`cannot save ${SEEDED.image} from ${engine}: ${answer.status}`);
  return Buffer.from(await answer.arrayBuffer());
}

/** The objects requests name (fz-running, fz-stopped, …) and the ids of an exec instance and a task. */
async function createSeeded(engine: string, image: Buffer): Promise<Record<string, string>> {
  const api = `${engine}/v1.25`;
  // the fuzz removes images too: the one everything is made from comes back from its saved tar
  if ((await fetch(`${api}/images/${SEEDED.image}/json`)).status !== 200) await (await fetch(`${api}/images/load`, { method: 'POST', body: new Uint8Array(image), headers: { 'content-type': 'application/x-tar' } })).arrayBuffer();
  await call(`${api}/containers/create?name=${SEEDED.running}`, 'POST', { Image: 'busybox', Cmd: ['sleep', '100000'] });
  await call(`${api}/containers/${SEEDED.running}/start`, 'POST');
  await call(`${api}/containers/create?name=${SEEDED.stopped}`, 'POST', { Image: 'busybox', Cmd: ['true'] });
  await call(`${api}/networks/create`, 'POST', { Name: SEEDED.network });
  await call(`${api}/volumes/create`, 'POST', { Name: SEEDED.volume });
  await call(`${api}/services/create`, 'POST', { Name: SEEDED.service, TaskTemplate: { ContainerSpec: { Image: 'busybox', Command: ['sleep', '100000'] } } });
  const exec = await call(`${api}/containers/${SEEDED.running}/exec`, 'POST', { Cmd: ['true'] });
  const tasks = await call(`${api}/tasks`, 'GET');
  return {
    '{{exec}}': (exec.json as { Id?: string } | undefined)?.Id ?? 'no-exec',
    '{{task}}': (tasks.json as Array<{ ID?: string }> | undefined)?.[0]?.ID ?? 'no-task',
  };
}

/** A prober: GET /_ping every 250 ms, one at a time; an answer later than 1 s is a miss, with how long it took. */
function startProber(current: () => string | undefined, started: number, sent: () => number) {
  const pings = { count: 0, maxMs: 0, misses: [] as Array<{ atSeconds: number; ms: number; afterRequests: number }> };
  let busy = false;
  const agent = new http.Agent({ keepAlive: false });
  const interval = setInterval(() => {
    const engine = current();
    if (busy || engine === undefined) return;
    busy = true;
    const sentAt = performance.now();
    const done = () => {
      const ms = performance.now() - sentAt;
      pings.count += 1;
      pings.maxMs = Math.max(pings.maxMs, ms);
      if (ms > 1_000) pings.misses.push({ atSeconds: Math.round((sentAt - started) / 100) / 10, ms: Math.round(ms), afterRequests: sent() });
      busy = false;
    };
    http.get(`${engine}/_ping`, { agent }, (response) => response.resume().on('end', done).on('error', done)).on('error', done);
  }, 250);
  return { pings, stop: () => clearInterval(interval) };
}

const MAX_RESTARTS = 3;
const RESEED_EVERY = 200;
/** bodies this large are past every limit of serve's but the tar one */
const OVERSIZED = 1024 * 1024;

/** Runs the fuzz against children started by `startServe`; whatever happens, every child is stopped at the end. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzSummary> {
  const children: ServeProcess[] = [];
  try {
    return await fuzzChildren(options, async () => {
      const child = await startServeProcess();
      children.push(child);
      return child;
    });
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}

async function fuzzChildren(options: FuzzOptions, startServe: () => Promise<ServeProcess>): Promise<FuzzSummary> {
  const log = options.log ?? (() => undefined);
  const endpoints = await readSpecEndpoints(options.root);
  const byId = new Map<string, SpecEndpoint>(endpoints.map((endpoint) => [endpoint.id, endpoint]));
  let serve: ServeProcess | undefined = await startServe();
  const image = await savedImage(serve.urls.engine);
  let placeholders = await createSeeded(serve.urls.engine, image);
  let restarting: Promise<void> | undefined;
  const started = performance.now();
  const prober = startProber(() => (restarting ? undefined : serve?.urls.engine), started, () => summary.sent);
  const startMb = memoryOf(serve.child.pid ?? 0)?.rss ?? NaN;
  let peakMb = startMb;
  let peakAfterRequests = 0;
  const jumps: MemoryJump[] = [];
  const sampler = setInterval(() => {
    const peak = memoryOf(serve?.child.pid ?? 0)?.peak ?? 0;
    if (peak - peakMb >= JUMP_MB && jumps.length < MAX_JUMPS) jumps.push({ afterRequests: summary.sent, fromMb: peakMb, toMb: peak, sentLast: recent.map(({ index: sent, request, url }) => describe(sent, request, url)) });
    if (peak > peakMb) [peakMb, peakAfterRequests] = [peak, summary.sent];
  }, 250);

  const summary: FuzzSummary = {
    seed: options.seed,
    sent: 0,
    seconds: 0,
    requestsPerSecond: 0,
    interrupted: false,
    statuses: {},
    byEndpoint: {},
    crashes: [],
    hangs: [],
    blocked: 0,
    stalledEnded: 0,
    closed: [],
    fiveHundreds: [],
    pings: prober.pings,
    memory: { startMb, peakMb, peakAfterRequests: 0, afterMb: NaN, boundMb: options.rssBoundMb, jumps },
    cpuSeconds: { serve: NaN, client: NaN },
  };
  const clientCpu = process.cpuUsage();
  const classes = new Map<string, FiveHundredClass>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  /** the requests sent last: when the child dies, the one that killed it is among them */
  const recent: Array<{ index: number; request: FuzzRequest; url: string }> = [];
  let stopped = false;

  /** The child died: record what was in flight, start another (while restarts remain). */
  const onCrash = (dead: ServeProcess) => {
    if (restarting || serve !== dead) return;
    const exit = dead.exited();
    summary.crashes.push({ afterRequests: summary.sent, exit: exit ? `code ${exit.code} signal ${exit.signal}` : 'refused connections', stderrTail: dead.stderrTail().slice(-1500), lastSent: recent.map(({ index: sent, request, url }) => describe(sent, request, url)) });
    log(`fuzz: serve died after ${summary.sent} requests (${exit ? `code ${exit.code} signal ${exit.signal}` : 'refusing'}); ${dead.stderrTail().trim().split('\n').slice(-3).join(' / ')}`);
    restarting = (async () => {
      await dead.stop();
      serve = undefined;
      if (summary.crashes.length > MAX_RESTARTS) {
        stopped = true;
        return;
      }
      serve = await startServe();
      placeholders = await createSeeded(serve.urls.engine, image);
    })().finally(() => {
      restarting = undefined;
    });
  };

  const record = (index: number, request: FuzzRequest, url: string, outcome: Outcome) => {
    if (outcome.kind === 'hang') {
      summary.hangs.push(describe(index, request, url));
      log(`fuzz: #${index} not answered in ${options.deadlineMs} ms: ${summary.hangs.at(-1)?.line ?? ''}`);
    } else if (outcome.kind === 'blocked') summary.blocked += 1;
    // a stalled upload, or one past the size limits, may well end with the connection closed under it
    else if (outcome.kind === 'closed' && request.stallAfter === undefined && (request.body?.length ?? 0) < OVERSIZED) summary.closed.push({ ...describe(index, request, url), error: outcome.error });
    if (request.stallAfter !== undefined) summary.stalledEnded += outcome.kind === 'answered' || outcome.kind === 'closed' ? 1 : 0;
    if (outcome.kind !== 'answered') return;
    summary.statuses[outcome.status] = (summary.statuses[outcome.status] ?? 0) + 1;
    const statuses = (summary.byEndpoint[request.endpoint] ??= {});
    statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
    if (outcome.status < 500) return;
    const message = messageOf(outcome.body);
    const endpoint = byId.get(request.endpoint);
    const key = `${request.endpoint} ${outcome.status} ${messageClass(message)}`;
    const known = classes.get(key);
    if (known) known.count += 1;
    else {
      classes.set(key, { endpoint: request.endpoint, status: outcome.status, message: message.slice(0, 300), allowed: outcome.status === 500 && endpoint !== undefined && (listsOnly500(endpoint) || isStateConflict(endpoint.id, message, versionOf(request.path))), count: 1, example: describe(index, request, url) });
    }
  };

  const pending = new Set<Promise<void>>();
  const stalled = new Set<Promise<void>>();
  let index = options.path === undefined ? 0 : Number(options.path);
  const dispatch = async (request: FuzzRequest) => {
    const current = index++;
    // a stalled upload waits on the server's idle timeout: it takes no slot of the concurrency
    while (request.stallAfter === undefined && pending.size - stalled.size >= options.concurrency) await Promise.race(pending);
    while (restarting) await restarting;
    if (stopped || serve === undefined) return false;
    const target = serve;
    // the fuzz removes what paths name: make it again now and then (what exists stays, a 409)
    if (current % RESEED_EVERY === RESEED_EVERY - 1) placeholders = await createSeeded(target.urls.engine, image).catch(() => placeholders);
    const url = `${target.urls[request.server]}${request.path.replace(/\{\{\w+\}\}/g, (placeholder) => placeholders[placeholder] ?? placeholder)}`;
    recent.push({ index: current, request, url });
    if (recent.length > 2 * options.concurrency) recent.shift();
    summary.sent += 1;
    const flight = send(request, url, agent, options.deadlineMs).then((outcome) => {
      if (outcome.kind === 'refused' || target.exited()) onCrash(target);
      else record(current, request, url, outcome);
    });
    const tracked = flight.finally(() => {
      pending.delete(tracked);
      stalled.delete(tracked);
    });
    pending.add(tracked);
    if (request.stallAfter !== undefined) stalled.add(tracked);
    if (summary.sent % 5_000 === 0) log(`fuzz: ${summary.sent} sent, ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return true;
  };

  const exited = () => {
    if (serve?.exited()) onCrash(serve);
  };
  const watch = setInterval(exited, 100);
  try {
    const details = await fc.check(fc.asyncProperty(fuzzRequest(endpoints), dispatch), {
      seed: options.seed,
      numRuns: options.count,
      ...(options.path !== undefined && { path: options.path }),
      endOnFailure: true,
      interruptAfterTimeLimit: options.timeLimitMs,
      markInterruptAsFailure: false,
    });
    if (details.failed && !stopped) throw details.errorInstance;
    while (pending.size > 0) await Promise.race(pending);
    summary.interrupted = details.interrupted;
    summary.seconds = (performance.now() - started) / 1000;
    summary.requestsPerSecond = summary.sent / summary.seconds;
    const used = process.cpuUsage(clientCpu);
    summary.cpuSeconds = { serve: cpuSecondsOf(serve?.child.pid ?? 0) ?? NaN, client: (used.user + used.system) / 1e6 };
    exited();
    while (restarting) await restarting;
  } finally {
    clearInterval(watch);
    prober.stop();
    clearInterval(sampler);
    agent.destroy();
  }

  if (serve !== undefined) {
    const pid = serve.child.pid ?? 0;
    // memory comes back in the collector's time: wait for it, up to 15 s
    const deadline = performance.now() + 15_000;
    let after = memoryOf(pid);
    while (after !== undefined && after.rss > options.rssBoundMb && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      after = memoryOf(pid);
    }
    summary.memory = { startMb, peakMb, peakAfterRequests, afterMb: after?.rss ?? NaN, boundMb: options.rssBoundMb, jumps };
  }
  summary.fiveHundreds = [...classes.values()].sort((a, b) => Number(a.allowed) - Number(b.allowed) || b.count - a.count);
  return summary;
}

/** The summary as lines: the seed first, so a failing run says how to replay it. */
export function formatSummary(summary: FuzzSummary): string {
  const findings = summary.fiveHundreds.filter((entry) => !entry.allowed);
  const allowed = summary.fiveHundreds.filter((entry) => entry.allowed);
  const sum = (entries: FiveHundredClass[]) => entries.reduce((total, entry) => total + entry.count, 0);
  const replay = (line: RequestLine) => `FUZZ_SEED=${summary.seed} FUZZ_PATH=${line.index} FUZZ_COUNT=1`;
  return [
    `fuzz: seed ${summary.seed}: ${summary.sent} requests in ${summary.seconds.toFixed(1)} s (${summary.requestsPerSecond.toFixed(0)}/s)${summary.interrupted ? ', cut short by the time limit' : ''}`,
    `CPU: serve ${summary.cpuSeconds.serve.toFixed(1)} s, the fuzzer ${summary.cpuSeconds.client.toFixed(1)} s`,
    `statuses: ${Object.entries(summary.statuses).map(([status, count]) => `${status}×${count}`).join(' ')}`,
    `endpoints never answered with a 2xx: ${Object.entries(summary.byEndpoint).filter(([endpoint, statuses]) => endpoint !== 'odd' && !Object.keys(statuses).some((status) => status.startsWith('2'))).map(([endpoint]) => endpoint).join(', ') || 'none'}`,
    `crashes ${summary.crashes.length}, hangs ${summary.hangs.length}, blocked as the spec allows ${summary.blocked}, closed without an answer ${summary.closed.length}, stalled uploads ended by the server ${summary.stalledEnded}`,
    `5xx for client mistakes: ${sum(findings)} in ${findings.length} classes; 500 on rows that list only 500 or for a state conflict: ${sum(allowed)} in ${allowed.length} classes`,
    `/_ping: ${summary.pings.count} probes, slowest ${summary.pings.maxMs.toFixed(0)} ms, ${summary.pings.misses.length} over 1 s${summary.pings.misses.length > 0 ? ` (${summary.pings.misses.slice(0, 5).map((miss) => `${miss.ms} ms at ${miss.atSeconds} s, after ${miss.afterRequests} requests`).join(', ')})` : ''}`,
    `memory of serve: ${summary.memory.startMb.toFixed(0)} MB at start, peak ${summary.memory.peakMb.toFixed(0)} MB (after ${summary.memory.peakAfterRequests} requests), ${summary.memory.afterMb.toFixed(0)} MB after (bound ${summary.memory.boundMb} MB)`,
    ...summary.memory.jumps.map((jump) => `memory jump ${jump.fromMb.toFixed(0)} → ${jump.toMb.toFixed(0)} MB after ${jump.afterRequests} requests; sent last: ${jump.sentLast.map((line) => `[${replay(line)}] ${line.line}`).join(' | ')}`),
    ...summary.crashes.map((crash) => `CRASH after ${crash.afterRequests} requests, ${crash.exit}; sent last: ${crash.lastSent.map((line) => `[${replay(line)}] ${line.line}`).join(' | ')}\n  ${crash.stderrTail.trim().split('\n').slice(-6).join('\n  ')}`),
    ...summary.hangs.slice(0, 20).map((line) => `HANG [${replay(line)}] ${line.line}`),
    ...findings.map((entry) => `5XX ${entry.status} ×${entry.count} ${entry.endpoint}: ${JSON.stringify(entry.message.slice(0, 160))} [${replay(entry.example)}] ${entry.example.line}`),
    ...allowed.map((entry) => `allowed: 500 ×${entry.count} ${entry.endpoint}: ${JSON.stringify(entry.message.slice(0, 120))}`),
    ...summary.closed.slice(0, 10).map((line) => `closed (${line.error}) [${replay(line)}] ${line.line}`),
  ].join('\n');
}
