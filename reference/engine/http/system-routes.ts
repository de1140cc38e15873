/** System endpoints: ping, version, info. */
import type { Route, RouteContext } from './route-table.ts';
import { sendJson, sendText } from './replies.ts';
import { atLeast } from '../../../protocol/versions.ts';
import { swarmInfoView } from './swarm-views.ts';
import { infoView, versionView } from './system-views.ts';

const PING_HEADERS = {
  'Docker-Experimental': 'false',
  'Cache-Control': 'no-cache, no-store, must-revalidate',
  Pragma: 'no-cache',
};

/** HEAD gets the same headers, Content-Length included; Node sends no body for HEAD. */
function ping({ response }: RouteContext): void {
  sendText(response, 200, 'OK', PING_HEADERS);
}

export const systemRoutes: Route[] = [
  { method: 'GET', path: '/_ping', handle: ping },
  { method: 'HEAD', path: '/_ping', handle: ping },
  {
    method: 'GET',
    path: '/version',
    handle: ({ response, model }) => sendJson(response, 200, versionView(model.system.version())),
  },
  {
    method: 'GET',
    path: '/info',
    handle: async ({ response, model, version, dialect }) => {
      // The Swarm section arrived with swarm mode, at 1.24.
      const swarm = atLeast(version, '1.24') && { Swarm: swarmInfoView(model.swarm) };
      sendJson(response, 200, { ...infoView(await model.system.info(), version, dialect), ...swarm });
    },
  },
];
