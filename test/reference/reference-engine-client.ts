/** Test helper: the harness's own client of a reference started on 127.0.0.1:0, for tests of harness code against it. */
import { createDispatcher } from '../../harness/client/dispatcher.ts';
import { EngineClient } from '../../harness/client/engine-client.ts';
import type { RunningReference } from '../../reference/serve.ts';

/** An unversioned client of `reference`, and what closes its connections. */
export function engineClientOf(reference: RunningReference): { engine: EngineClient; close: () => Promise<void> } {
  const connection = { origin: reference.engineUrl.replace(/^tcp:/, 'http:') };
  const dispatcher = createDispatcher(connection);
  return { engine: new EngineClient(connection, dispatcher, undefined), close: () => dispatcher.close() };
}
