/**
 * Attaching to a container (spec/1 §4.1 attach rows, §4.4): POST attach as a raw stream — hijacked
 * with Upgrade, a 200 body without — and GET attach/ws as a websocket. Both replay the log first
 * with logs=1 and attach to the streams with stream=1. The websocket carries the bytes unframed, in
 * text messages as dockerd sends them before 1.28 (or binary ones, the personality's choice); invalid
 * detach keys there fall back to the default.
 */
import { WebSocket, WebSocketServer } from 'ws';
import { attachBeginning } from './attach-readiness.ts';
import type { Container } from '../model/containers/container.ts';
import type { LogEntry } from '../model/containers/container-log.ts';
import { parseDetachKeys } from '../model/containers/detach-keys.ts';
import { InvalidParameterError } from '../model/common/errors.ts';
import type { OutputStreamName, ProcessAttachment } from '../model/containers/process-attachment.ts';
import { HttpError } from '../../http-error.ts';
import { AfterHead, headerBlockDelivered, openRawStream, type AttachClient } from './raw-stream.ts';
import { containerOf } from './route-helpers.ts';
import type { Route, RouteContext } from './route-table.ts';

interface AttachQuery {
  logs: boolean;
  stream: boolean;
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  /** undefined: the default. The query parameter came with 1.25 (spec/1 §7.4); dockerd 20.10 reads it at every version */
  detachKeys?: Buffer;
}

function attachQuery({ query, personality }: RouteContext, invalidKeys: 'refuse' | 'use-default'): AttachQuery {
  const flag = (name: string) => personality.booleanQuery(query.get(name), false);
  const keysText = query.get('detachKeys') || undefined;
  const detachKeys = keysText === undefined ? undefined : parseDetachKeys(keysText);
  if (keysText !== undefined && !detachKeys && invalidKeys === 'refuse') throw new InvalidParameterError(`Invalid detach keys (${keysText}) provided`);
  return { logs: flag('logs'), stream: flag('stream'), stdin: flag('stdin'), stdout: flag('stdout'), stderr: flag('stderr'), detachKeys };
}

/** The log, when asked for: taken before the answer begins, so that a log driver that keeps none is refused as such. */
function logReplay({ model }: RouteContext, container: Container, query: AttachQuery): AsyncIterable<LogEntry> | undefined {
  return query.logs ? model.operations.logs(container, { stdout: query.stdout, stderr: query.stderr }) : undefined;
}

/** The log replay, then the attachment; the client ends with the replay when there is no stream. */
async function serveAttach(
  { model, personality }: RouteContext,
  container: Container,
  query: AttachQuery,
  replay: AsyncIterable<LogEntry> | undefined,
  client: AttachClient,
): Promise<void> {
  if (replay) for await (const entry of replay) client.send(entry.stream, entry.bytes);
  const streams = query.stream
    ? { stdin: query.stdin && client.hasInput, stdout: query.stdout, stderr: query.stderr, detachKeys: query.detachKeys ?? personality.defaultDetachKeys, output: client.send.bind(client) }
    : undefined;
  const attachment = model.attach.attach(container, streams);
  if (attachment) client.bind(attachment);
  else client.end();
}

async function attach(context: RouteContext): Promise<void> {
  const container = containerOf(context);
  const query = attachQuery(context, 'refuse');
  context.model.attach.check(container, query.stream);
  const replay = logReplay(context, container, query);
  const client = openRawStream(context, { multiplexed: !container.config.Tty });
  attachBeginning(container, client.streamBegun);
  try {
    await serveAttach(context, container, query, replay, client);
  } catch {
    // The answer has begun: a failure can only end the stream.
    client.end();
  }
}

async function attachWebsocket(context: RouteContext): Promise<void> {
  const container = containerOf(context);
  const query = attachQuery(context, 'use-default');
  context.model.attach.check(container, query.stream);
  const replay = logReplay(context, container, query);
  const socket = await acceptWebsocket(context);
  // ws wrote the 101 on the upgraded connection: it goes out on its own before the first message
  const afterHead = new AfterHead(context.upgrade ? headerBlockDelivered(context.upgrade.socket) : Promise.resolve());
  const client = new WebsocketClient(socket, context.personality.binaryWebsocket, afterHead);
  attachBeginning(container, client.streamBegun);
  try {
    await serveAttach(context, container, query, replay, client);
  } catch {
    client.end();
  }
}

/** The websocket handshake on the upgraded connection; a request that is not one is a 400. */
function acceptWebsocket({ request, upgrade }: RouteContext): Promise<WebSocket> {
  if (!upgrade) throw new HttpError(400, 'Invalid Upgrade header');
  const server = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    // With a listener, ws leaves a refused handshake to us: it is answered like any other error.
    server.once('wsClientError', (error: Error) => reject(new HttpError(400, error.message)));
    server.handleUpgrade(request, upgrade.socket, Buffer.alloc(0), resolve);
  });
}

class WebsocketClient implements AttachClient {
  readonly hasInput = true;

  get streamBegun(): Promise<void> {
    return this.afterHead.delivered;
  }

  constructor(
    private readonly socket: WebSocket,
    private readonly binary: boolean,
    private readonly afterHead: AfterHead,
  ) {
    socket.on('error', () => socket.terminate());
  }

  send(_stream: OutputStreamName, chunk: Buffer): void {
    this.afterHead.run(() => {
      if (this.socket.readyState === WebSocket.OPEN) this.socket.send(chunk, { binary: this.binary });
    });
  }

  bind(attachment: ProcessAttachment): void {
    this.socket.on('message', (data: Buffer) => attachment.write(data));
    this.socket.once('close', () => attachment.clientGone());
    void attachment.ended.then(() => this.end());
  }

  end(): void {
    this.afterHead.run(() => this.socket.close(1000));
  }
}

export const attachRoutes: Route[] = [
  { method: 'POST', path: '/containers/{id*}/attach', handle: attach },
  { method: 'GET', path: '/containers/{id*}/attach/ws', handle: attachWebsocket },
];
