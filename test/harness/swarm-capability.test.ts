/**
 * The `swarm` and `standalone` capabilities: found over the wire in GET /info's Swarm section, `swarm`
 * only on an active swarm manager, `standalone` only on a node outside any swarm.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/serve.ts';
import { EngineClient } from '../../harness/client/engine-client.ts';
import { createDispatcher } from '../../harness/client/dispatcher.ts';
import { connectionOf, detectCapabilities } from '../../harness/run/prepare-target.ts';

let running: { reference: RunningReference; close: () => Promise<void> } | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function clientOf(swarm: boolean): Promise<EngineClient> {
  const reference = await startReference({ swarm });
  const connection = connectionOf(reference.engineUrl);
  const dispatcher = createDispatcher(connection);
  running = {
    reference,
    close: async () => {
      await dispatcher.close();
      await reference.close();
    },
  };
  return new EngineClient(connection, dispatcher, undefined);
}

describe('the swarm and standalone capabilities', () => {
  test('a reference that manages a swarm has it', async () => {
    const capabilities = await detectCapabilities(await clientOf(true));
    expect(capabilities).toContain('swarm');
    expect(capabilities).not.toContain('standalone');
  });

  test('a reference outside a swarm (serve --swarm=false) is standalone', async () => {
    const capabilities = await detectCapabilities(await clientOf(false));
    expect(capabilities).not.toContain('swarm');
    expect(capabilities).toContain('standalone');
  });
});
