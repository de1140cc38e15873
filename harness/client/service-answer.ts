/**
 * An answer of the token service or the accounts API. Token responses carry secrets (refresh tokens,
 * access tokens): what an answer says about itself, and the exchange log that failure messages and
 * reports quote, show them masked. Checks read the values from `json()`, and must not hand them to
 * an assertion whose failure would print them.
 */
import type { ApiResponse, ExchangeRecord } from './api-response.ts';
import { describeExchange } from './api-response.ts';
import type { EngineClient, RequestOptions } from './engine-client.ts';

/** a secret's value up to its closing quote, or to the end of a preview cut inside it */
const SECRET_FIELDS = /("(?:access_token|refresh_token|token)"\s*:\s*")[^"]*("|$)/g;

export function maskSecrets(text: string): string {
  return text.replace(SECRET_FIELDS, '$1<masked>$2');
}

export class ServiceAnswer {
  constructor(
    private readonly response: ApiResponse,
    private readonly record: ExchangeRecord,
  ) {}

  get status(): number {
    return this.response.status;
  }

  get headers(): Record<string, string> {
    return this.response.headers;
  }

  json<T = unknown>(): T {
    return this.response.json<T>();
  }

  text(): string {
    return this.response.text();
  }

  /** `POST /token → 400 application/json "{…}"`, secrets masked */
  describe(): string {
    return describeExchange(this.record);
  }
}

/**
 * Sends through `http` (an unprefixed client on the service's origin, sharing the check's exchange
 * log) and masks the secrets in the logged record. `raw` logs its record before its first await, so
 * the record is the one at the log's end when the call starts.
 */
export async function sendMasked(http: EngineClient, method: string, path: string, options: RequestOptions): Promise<ServiceAnswer> {
  const position = http.exchanges.length;
  const pending = http.raw(method, path, options);
  const record = http.exchanges[position];
  const response = await pending;
  if (!record) throw new Error('the exchange log lost the request it was sending');
  if (record.bodyPreview !== undefined) record.bodyPreview = maskSecrets(record.bodyPreview);
  return new ServiceAnswer(response, record);
}
