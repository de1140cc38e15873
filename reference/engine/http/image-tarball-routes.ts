/**
 * Image tarballs (spec/2 §2.2, §4.1): GET /images/{name}/get and GET /images/get?names=… answer the
 * tarball; POST /images/load reads one from the body and answers a JSON message stream — progress
 * unless `quiet`, the confirmations, and the error in the stream when the tarball is refused. The
 * same at every version.
 */
import { readBody } from '../../request-limits.ts';
import { loadImages } from '../model/images/image-tarball-load.ts';
import { saveImages } from '../model/images/image-tarball-save.ts';
import { JsonMessageStream } from './json-messages.ts';
import type { Route, RouteContext } from './route-table.ts';

const TAR = 'application/x-tar';
/** what dockerd's load says while it reads a layer */
const LOADING_LAYER = 'Loading layer';

async function sendTarball({ response, model }: RouteContext, names: string[]): Promise<void> {
  const archive = await saveImages(model.images, names);
  response.writeHead(200, { 'Content-Type': TAR, 'Content-Length': archive.length });
  response.end(archive);
}

async function load({ request, response, model, query, personality }: RouteContext): Promise<void> {
  // the spec's default; dockerd's is quiet
  const quiet = personality.booleanQuery(query.get('quiet'), false);
  const archive = await readBody(request, 'tar');
  const messages = new JsonMessageStream(response);
  messages.begin();
  try {
    await loadImages(model.images, archive, {
      quiet,
      report: (report) => (report.kind === 'progress' ? messages.progress(LOADING_LAYER, report.id, report.current, report.total) : messages.stream(report.text)),
    });
  } catch (error) {
    messages.error(error instanceof Error ? error.message : String(error));
  }
  messages.end();
}

export const imageTarballRoutes: Route[] = [
  { method: 'GET', path: '/images/get', handle: (context) => sendTarball(context, context.query.getAll('names')) },
  { method: 'GET', path: '/images/{name*}/get', handle: (context) => sendTarball(context, [context.params.name ?? '']) },
  { method: 'POST', path: '/images/load', handle: load },
];
