/**
 * A file served over HTTP on this host's loopback for the length of a check, for requests that make
 * the target fetch a URL (a build's `remote`). Only a target on this host reaches it: the checks
 * that use it require the `host-loopback` capability. The server closes when the check ends.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CheckContext } from '../harness/check.ts';

/** Serves `body` with `contentType` at every path on 127.0.0.1; returns the URL of `/name`. */
export async function servedFile({ make }: CheckContext, name: string, body: string | Buffer, contentType: string): Promise<string> {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  make.track(`the HTTP server of ${name}`, () => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/${name}`;
}
