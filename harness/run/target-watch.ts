/**
 * Whether the target still answers while the checks run, so that a run whose target went away stops at
 * once and keeps what it has. A check's failed request proves nothing (some checks break their own
 * connection on purpose): it only makes the watch ask GET /_ping on a connection of its own. The target
 * is lost after CONFIRMATIONS pings in a row that cannot connect (refused, no socket, reset, closed),
 * RETRY_MS apart; one that answers, with any status, clears it. A ping every HEARTBEAT_MS notices a
 * target that goes away while the checks wait. A ping that times out counts neither way: a busy target
 * answers late, and a check's own deadline bounds a hung one.
 */
import { request } from 'undici';
import { createDispatcher } from '../client/dispatcher.ts';
import type { Connection } from '../target.ts';

export interface RunningCheck {
  id: string;
  version: string;
}

export interface TargetLoss {
  /** the first sign: a check's request that could not connect, or the watch's own ping */
  at: Date;
  /** how the last ping failed, e.g. `connect ECONNREFUSED /tmp/x.sock` */
  cause: string;
  /** the checks running at the first sign; a check whose request failed first comes first */
  running: RunningCheck[];
}

const HEARTBEAT_MS = 2_000;
const RETRY_MS = 300;
const CONFIRMATIONS = 3;
const PING_TIMEOUT_MS = 5_000;

/** Node's and undici's codes for a connection that could not be made or was dropped. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** The same in a check's failure message (workers send the message, not the error): a reason to ping. */
const CONNECTION_FAILURE_TEXT = /\b(?:ECONNREFUSED|ENOENT|ECONNRESET|EPIPE|ECONNABORTED|EHOSTUNREACH|ENETUNREACH)\b|other side closed|socket hang up/;

/** Whether `error` (or its cause) is a connection that could not be made or was dropped; a timeout or an answer is not. */
export function isConnectionFailure(error: unknown): boolean {
  const codes = [error, (error as { cause?: unknown } | undefined)?.cause].map((item) => (item as { code?: unknown } | undefined)?.code);
  return codes.some((code) => typeof code === 'string' && CONNECTION_CODES.has(code));
}

export function showsConnectionFailure(message: string): boolean {
  return CONNECTION_FAILURE_TEXT.test(message);
}

export class TargetWatch {
  private readonly dispatcher;
  private firstSign: { at: Date; running: RunningCheck[] } | undefined;
  private failures = 0;
  private probing = false;
  private stopped = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private loss: TargetLoss | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly options: {
      /** the checks running now */
      running: () => RunningCheck[];
      /** called once, when the target is known lost */
      onLost: (loss: TargetLoss) => void;
      /** called when the target answers after a sign that it might be gone */
      onAnswer?: () => void;
      heartbeatMs?: number;
      retryMs?: number;
    },
  ) {
    this.dispatcher = createDispatcher(connection);
  }

  start(): void {
    this.heartbeat = setInterval(() => this.pingUnlessConfirming(), this.options.heartbeatMs ?? HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** A check's request failed to connect: the first sign (with that check first among those running), and a ping now. */
  suspect(check: RunningCheck): void {
    if (this.loss || this.stopped) return;
    this.firstSign ??= { at: new Date(), running: [check, ...this.options.running().filter((other) => other.id !== check.id || other.version !== check.version)] };
    this.pingUnlessConfirming();
  }

  /** A ping now, unless one is under way or the next of a confirmation is due: those stay RETRY_MS apart. */
  private pingUnlessConfirming(): void {
    if (this.retry === undefined) void this.probe();
  }

  /**
   * The checks have ended: a sign still open (a check could not connect, no ping has told yet) is
   * settled now, the target answering or lost, so that a target gone during the last checks is told
   * as one gone during any other. A few pings at most: ones that time out leave it open.
   */
  async settle(): Promise<void> {
    for (let pings = 0; this.firstSign !== undefined && this.loss === undefined && !this.stopped && pings <= CONFIRMATIONS + 1; ) {
      if (this.probing || this.retry !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, (this.options.retryMs ?? RETRY_MS) / 3));
        continue;
      }
      pings += 1;
      await this.probe();
    }
  }

  get lost(): TargetLoss | undefined {
    return this.loss;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.retry);
    await this.dispatcher.destroy();
  }

  private async probe(): Promise<void> {
    if (this.probing || this.loss || this.stopped) return;
    this.probing = true;
    let failure: string | undefined;
    try {
      const answer = await request(new URL('/_ping', this.connection.origin), { dispatcher: this.dispatcher, reset: true, signal: AbortSignal.timeout(PING_TIMEOUT_MS) });
      await answer.body.dump();
    } catch (error) {
      // a timeout, or anything else that is no failure to connect, says nothing either way
      failure = isConnectionFailure(error) ? (error as Error).message : '';
    } finally {
      this.probing = false;
    }
    if (this.stopped || failure === '') return;
    if (failure === undefined) {
      const suspected = this.firstSign !== undefined;
      this.failures = 0;
      this.firstSign = undefined;
      if (suspected) this.options.onAnswer?.();
      return;
    }
    this.failures += 1;
    this.firstSign ??= { at: new Date(), running: this.options.running() };
    if (this.failures < CONFIRMATIONS) {
      this.retry = setTimeout(() => {
        this.retry = undefined;
        void this.probe();
      }, this.options.retryMs ?? RETRY_MS);
      return;
    }
    this.loss = { ...this.firstSign, cause: failure };
    this.options.onLost(this.loss);
  }
}
