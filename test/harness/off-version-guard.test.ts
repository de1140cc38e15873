/**
 * The version guard (issue 23): a check's requests go at the version under test; one that goes
 * elsewhere (or unprefixed) says why, and the wrapper turns one that does not into the check's error.
 */
import { describe, expect, test } from 'vitest';
import { offVersionExchanges } from '../../harness/check.ts';
import { describeExchange, exchangeVersion, type ExchangeRecord } from '../../harness/client/api-response.ts';
import { ResourceTracker } from '../../harness/resources.ts';
import { startFakeImageDaemon } from './fake-image-daemon.ts';

describe('exchangeVersion', () => {
  test('reads the /vX.Y prefix of the path, and nothing else', () => {
    expect(exchangeVersion({ path: '/v1.22/containers/create?name=x' })).toBe('1.22');
    expect(exchangeVersion({ path: '/containers/create?name=v1.22' })).toBeUndefined();
    expect(exchangeVersion({ path: '/v1.25' })).toBeUndefined();
  });
});

describe('offVersionExchanges', () => {
  const at = (path: string, offVersion?: string): ExchangeRecord => ({ method: 'GET', path, offVersion });

  test('lists an unprefixed request and one at another version, unless it says why', () => {
    const exchanges = [
      at('/v1.22/networks/create'),
      at('/containers/create?name=c'),
      at('/v1.41/info'),
      at('/containers/c', 'clean-up'),
      at('/v1.26/version', 'a check about version prefixes'),
    ];
    expect(offVersionExchanges(exchanges, '1.22').map((exchange) => exchange.path)).toEqual(['/containers/create?name=c', '/v1.41/info']);
  });

  test('an exchange with its reason shows it when quoted', () => {
    expect(describeExchange({ ...at('/containers/c', 'clean-up'), status: 204 })).toBe('GET /containers/c (off the version under test: clean-up) → 204');
  });
});

describe('the resource tracker', () => {
  test('creates at the version under test and removes unprefixed, saying clean-up', async () => {
    const daemon = await startFakeImageDaemon([]);
    try {
      const engine = daemon.at('1.21');
      const make = new ResourceTracker(engine, 'run');
      await make.container({ Image: 'busybox' }).catch(() => undefined);
      make.volume('v');
      await make.cleanup();
      const [create, ...removal] = engine.exchanges;
      expect(create?.path).toMatch(/^\/v1\.21\/containers\/create\?name=/);
      expect(create?.offVersion).toBeUndefined();
      expect(removal.map((exchange) => [exchange.path, exchange.offVersion])).toEqual([['/volumes/v', 'clean-up']]);
      expect(offVersionExchanges(engine.exchanges, '1.21')).toEqual([]);
    } finally {
      await daemon.close();
    }
  });
});
