/**
 * A container's files as tars (spec/1 §4.1): HEAD, GET and PUT /containers/{id}/archive, whose path
 * stat (§2.4) travels in the dialect's header, GET /containers/{id}/export, and the old POST
 * /containers/{id}/copy, which errors out from 1.24. Like dockerd, the archive endpoints answer at
 * every version.
 */
import type { ServerResponse } from 'node:http';
import { readBody } from '../../request-limits.ts';
import { atLeast } from '../../../protocol/versions.ts';
import type { PathStat } from '../filesystem/container-archive.ts';
import { InvalidParameterError } from '../model/common/errors.ts';
import { formatTimestamp } from '../model/common/timestamps.ts';
import { COPY_CONFIG } from './body-structs.ts';
import { decodeGo } from './json-fields.ts';
import { readJsonBody } from './json-body.ts';
import { sendEmpty } from './replies.ts';
import { containerOf } from './route-helpers.ts';
import type { Route, RouteContext } from './route-table.ts';

const TAR = 'application/x-tar';

/** `path` is checked before the container is looked up, as dockerd does; the message is dockerd's, missing space included. */
function requiredPath({ query }: RouteContext): string {
  const path = query.get('path');
  if (!path) throw new InvalidParameterError('bad parameter: pathcannot be empty');
  return path;
}

/** The path stat as its header: base64 of its JSON, the mtime as Go prints a time. */
function pathStatHeader({ dialect }: RouteContext, stat: PathStat): Record<string, string> {
  const json = JSON.stringify({ name: stat.name, size: stat.size, mode: stat.mode, mtime: formatTimestamp(stat.mtime), linkTarget: stat.linkTarget });
  return { [dialect.pathStatHeader]: Buffer.from(json).toString('base64') };
}

function sendArchive(response: ServerResponse, contentType: string, archive: Buffer, headers: Record<string, string> = {}): void {
  response.writeHead(200, { ...headers, 'Content-Type': contentType, 'Content-Length': archive.length });
  response.end(archive);
}

async function statPath(context: RouteContext): Promise<void> {
  const path = requiredPath(context);
  const stat = await context.model.archives.statPath(containerOf(context), path);
  context.response.writeHead(200, pathStatHeader(context, stat));
  context.response.end();
}

async function getArchive(context: RouteContext): Promise<void> {
  const path = requiredPath(context);
  const { stat, tar } = await context.model.archives.archivePath(containerOf(context), path);
  sendArchive(context.response, TAR, tar, pathStatHeader(context, stat));
}

/** The body is a tar whatever its Content-Type says: dockerd does not look at it. */
async function putArchive(context: RouteContext): Promise<void> {
  const path = requiredPath(context);
  const noOverwriteDirNonDir = context.personality.booleanQuery(context.query.get('noOverwriteDirNonDir'), false);
  const archive = await readBody(context.request, 'tar');
  await context.model.archives.extractArchive(containerOf(context), path, archive, { noOverwriteDirNonDir });
  // an explicit empty length, as dockerd sends, rather than Node's empty chunked body
  context.response.writeHead(200, { 'Content-Length': 0 });
  context.response.end();
}

async function exportContainer(context: RouteContext): Promise<void> {
  sendArchive(context.response, 'application/octet-stream', await context.model.archives.export(containerOf(context)));
}

/** Removed at 1.24: dockerd answers 404 with no body there, whatever the container and the body. */
async function copy(context: RouteContext): Promise<void> {
  if (atLeast(context.version, '1.24')) return sendEmpty(context.response, 404);
  const body = await readJsonBody(context.request);
  if (body === undefined) throw new InvalidParameterError('got EOF while reading request body');
  const resource = decodeGo<{ Resource?: string }>(body, COPY_CONFIG).Resource;
  if (!resource) throw new InvalidParameterError('Path cannot be empty');
  sendArchive(context.response, TAR, await context.model.archives.copy(containerOf(context), resource));
}

export const archiveRoutes: Route[] = [
  { method: 'HEAD', path: '/containers/{id*}/archive', handle: statPath },
  { method: 'GET', path: '/containers/{id*}/archive', handle: getArchive },
  { method: 'PUT', path: '/containers/{id*}/archive', handle: putArchive },
  { method: 'GET', path: '/containers/{id*}/export', handle: exportContainer },
  { method: 'POST', path: '/containers/{id*}/copy', handle: copy },
];
