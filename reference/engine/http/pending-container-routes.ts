/**
 * The container endpoints of spec/1 §4.1 and §4.2 the reference does not serve yet. They exist as
 * routes so that an unknown container still gets dockerd's 404, and a known one a clear 501 rather
 * than a misleading "page not found".
 */
import { atLeast } from '../../../harness/versions.ts';
import { HttpError } from './http-error.ts';
import { sendEmpty } from './replies.ts';
import type { Route, RouteContext } from './route-table.ts';

const PENDING: [method: string, action: string][] = [
  ['GET', 'export'],
  ['GET', 'stats'],
  ['POST', 'attach'],
  ['GET', 'attach/ws'],
  ['HEAD', 'archive'],
  ['GET', 'archive'],
  ['PUT', 'archive'],
  ['POST', 'exec'],
];

function notYet(method: string, action: string) {
  return ({ model, params }: RouteContext): void => {
    model.containers.find(params.id ?? '');
    throw new HttpError(501, `${method} /containers/{id}/${action} is not implemented in the reference yet`);
  };
}

/** Removed at 1.24: dockerd answers 404 with no body there, whatever the container. */
function copy(context: RouteContext): void {
  if (atLeast(context.version, '1.24')) return sendEmpty(context.response, 404);
  notYet('POST', 'copy')(context);
}

export const pendingContainerRoutes: Route[] = [
  ...PENDING.map(([method, action]) => ({ method, path: `/containers/{id*}/${action}`, handle: notYet(method, action) })),
  { method: 'POST', path: '/containers/{id*}/copy', handle: copy },
];
