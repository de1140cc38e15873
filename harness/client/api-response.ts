import { maskBodySecrets, type SentRequest } from './sent-request.ts';

/**
 * One request and what came back, kept so that a failing check can say which request showed it (and
 * a report can give the command that sends it again).
 */
export interface ExchangeRecord {
  method: string;
  /** with the version prefix and the query */
  path: string;
  /** how the answer was read: `upgrade`, a hijacked connection (Upgrade: tcp); `stream`, read as it streams */
  mode?: 'upgrade' | 'stream';
  /** set when the request went to the token service or the accounts API (spec/3), not the engine */
  service?: 'token' | 'accounts';
  /** the request's headers and body, credentials masked */
  sent?: SentRequest;
  status?: number;
  contentType?: string;
  /** the first bytes of the body, for failure messages */
  bodyPreview?: string;
  /** from sending the request to having the whole body: time spent waiting on the target */
  elapsedMs?: number;
  /** why the request is not at the version under test (its path carries the version it is at) */
  offVersion?: string;
}

/** The API version an exchange went at, from its path's `/vX.Y` prefix; undefined for an unprefixed path. */
export function exchangeVersion(exchange: Pick<ExchangeRecord, 'path'>): string | undefined {
  return /^\/v(\d+\.\d+)\//.exec(exchange.path)?.[1];
}

const PREVIEW_LENGTH = 300;

export class NonConformingResponse extends Error {
  override name = 'NonConformingResponse';
}

export class ApiResponse {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: Buffer,
  ) {}

  get contentType(): string | undefined {
    return this.headers['content-type'];
  }

  text(): string {
    return this.body.toString('utf8');
  }

  /** Parses the body as JSON; a body that is not JSON is the target's fault, so it fails the check. */
  json<T = unknown>(): T {
    try {
      return JSON.parse(this.text()) as T;
    } catch {
      throw new NonConformingResponse(`expected a JSON body from ${this.describe()}, got ${JSON.stringify(this.text().slice(0, PREVIEW_LENGTH))}`);
    }
  }

  /** `GET /v1.24/info → 200 application/json` */
  describe(): string {
    return describeExchange(this.record());
  }

  record(): ExchangeRecord {
    return {
      method: this.method,
      path: this.path,
      status: this.status,
      contentType: this.contentType,
      // POST /auth's IdentityToken and the token service's tokens are credentials: masked, to the end of a preview cut inside one.
      bodyPreview: maskBodySecrets(this.text().slice(0, PREVIEW_LENGTH)),
    };
  }
}

const MODE_NOTE = { upgrade: '(Upgrade: tcp)', stream: '(read as it streams)' } as const;

export function describeExchange(exchange: ExchangeRecord): string {
  const outcome = exchange.status === undefined ? 'no response' : `${exchange.status}${exchange.contentType ? ` ${exchange.contentType}` : ''}`;
  const body = exchange.bodyPreview ? ` ${JSON.stringify(exchange.bodyPreview.trim())}` : '';
  const offVersion = exchange.offVersion ? ` (off the version under test: ${exchange.offVersion})` : '';
  return `${exchange.method} ${exchange.path}${exchange.mode ? ` ${MODE_NOTE[exchange.mode]}` : ''}${offVersion} → ${outcome}${body}`;
}
