/**
 * An answer of the token service or the accounts API. Token responses carry secrets (refresh tokens,
 * access tokens): what an answer says about itself, and the exchange log that failure messages and
 * reports quote, show them masked. Checks read the values from `json()`, and must not hand them to
 * an assertion whose failure would print them.
 */
import type { ApiResponse, ExchangeRecord } from './api-response.ts';
import { describeExchange } from './api-response.ts';
import type { EngineClient, RequestOptions } from './engine-client.ts';

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
 * log); the logged record has the secrets masked (ApiResponse.record, recordSent). `raw` logs its
 * record before its first await, so the record is the one at the log's end when the call starts.
 */
export async function sendToService(http: EngineClient, service: 'token' | 'accounts', method: string, path: string, options: RequestOptions): Promise<ServiceAnswer> {
  const position = http.exchanges.length;
  const pending = http.raw(method, path, options);
  const record = http.exchanges[position];
  if (!record) throw new Error('the exchange log lost the request it was sending');
  // A report's reproduce command sends it to this service's URL, not the engine's.
  record.service = service;
  const response = await pending;
  return new ServiceAnswer(response, record);
}
