/** One undici Agent per connection: keep-alive pooling over a Unix socket, TCP or TLS. */
import { Agent } from 'undici';
import type { Connection } from '../target.ts';

export function createDispatcher(connection: Connection): Agent {
  return new Agent({
    connect: {
      ...(connection.socketPath ? { socketPath: connection.socketPath } : {}),
      ...(connection.tls
        ? {
            ca: connection.tls.ca,
            cert: connection.tls.cert,
            key: connection.tls.key,
            rejectUnauthorized: !connection.tls.skipVerify,
          }
        : {}),
    },
    keepAliveTimeout: 10_000,
    // A hung target must not hang a run: a check's own deadline is the outer bound.
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
}
