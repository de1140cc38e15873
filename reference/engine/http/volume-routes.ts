/**
 * Volume endpoints (spec/2 §4.3): list with filters, create, inspect, remove. dockerd serves them at
 * every version prefix, and so does the reference; only the volume's shape changes (volume-views.ts).
 */
import { InvalidParameterError, NotFoundError } from '../model/common/errors.ts';
import type { VolumeCreateOptions } from '../model/volumes/volume-store.ts';
import { readJsonBody } from './json-body.ts';
import { VOLUME_CREATE_BODY } from './body-structs.ts';
import { decodeGo } from './json-fields.ts';
import { listRoute } from './list-route.ts';
import { sendEmpty, sendJson } from './replies.ts';
import type { Route } from './route-table.ts';
import { volumeView } from './volume-views.ts';

/** dockerd takes `label` too, which the spec does not list. */
const LIST_FILTERS = ['name', 'driver', 'label', 'dangling'] as const;

function parseCreateBody(body: unknown): VolumeCreateOptions {
  if (body === undefined) throw new InvalidParameterError('got EOF while reading request body');
  const fields = decodeGo<{ Name?: string; Driver?: string; DriverOpts?: Record<string, string>; Labels?: Record<string, string> }>(body, VOLUME_CREATE_BODY);
  return { name: fields.Name, driver: fields.Driver, driverOpts: fields.DriverOpts, labels: fields.Labels };
}

export const volumeRoutes: Route[] = [
  listRoute({
    path: '/volumes',
    filterNames: LIST_FILTERS,
    list: ({ model }, filters) => model.volumes.list(filters),
    view: (context) => (volume) => volumeView(volume, context),
    answer: (volumes) => ({ Volumes: volumes, Warnings: [] }),
  }),
  {
    method: 'POST',
    path: '/volumes/create',
    handle: async ({ request, response, model, version, dialect, personality }) => {
      const volume = model.volumes.create(parseCreateBody(await readJsonBody(request)));
      sendJson(response, 201, volumeView(volume, { version, dialect, personality }));
    },
  },
  {
    method: 'GET',
    path: '/volumes/{name}',
    handle: ({ response, model, params, version, dialect, personality }) => {
      sendJson(response, 200, volumeView(model.volumes.find(params.name ?? ''), { version, dialect, personality }));
    },
  },
  {
    method: 'DELETE',
    path: '/volumes/{name}',
    handle: ({ response, model, params, query, personality }) => {
      // dockerd's force: a volume that is not there is no error (one in use still is)
      try {
        model.volumes.remove(params.name ?? '');
      } catch (error) {
        if (!(error instanceof NotFoundError && personality.booleanQuery(query.get('force'), false))) throw error;
      }
      sendEmpty(response, 204);
    },
  },
];
