/** The Bearer challenge the engine's registry client reads, as dockerd parses WWW-Authenticate. */
import { describe, expect, it } from 'vitest';
import { bearerChallenge } from '../../../reference/engine/registry-client/challenge-header.ts';

describe('bearerChallenge', () => {
  it('reads realm, service and scope, quoted or not, in any case of the scheme', () => {
    expect(bearerChallenge('Bearer realm="http://127.0.0.1:5001/token",service="shipshape-registry",scope="repository:alice/app:pull,push"')).toEqual({
      realm: 'http://127.0.0.1:5001/token',
      service: 'shipshape-registry',
      scope: 'repository:alice/app:pull,push',
    });
    expect(bearerChallenge('bearer realm=http://auth/token, service=reg')).toEqual({ realm: 'http://auth/token', service: 'reg' });
  });

  it('unescapes quoted-pair characters', () => {
    expect(bearerChallenge('Bearer realm="http://a/t",service="a \\"b\\""')?.service).toBe('a "b"');
  });

  it.each(['Basic realm="registry"', 'Bearer service="reg"', ''])('gives none for %j (no Bearer scheme or no realm)', (header) => {
    expect(bearerChallenge(header)).toBeUndefined();
  });
});
