/** One keep-alive pool per connection and process: checks in a worker share it. */
import type { Agent } from 'undici';
import type { Connection } from '../target.ts';
import { createDispatcher } from './dispatcher.ts';

const pools = new Map<string, Agent>();

export function connectionDispatcher(connection: Connection): Agent {
  const key = JSON.stringify(connection);
  let pool = pools.get(key);
  if (!pool) {
    pool = createDispatcher(connection);
    pools.set(key, pool);
  }
  return pool;
}
