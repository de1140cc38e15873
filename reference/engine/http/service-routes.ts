/**
 * Service endpoints (spec/2 §4.6): create (201 {ID}, with dockerd's Warnings when it has some: an
 * image it cannot pin to a digest), update (the spec's empty text/plain 200),
 * list with dockerd's filters, inspect, update at a `version`, remove. Create and update take
 * X-Registry-Auth, the credentials the service's tasks pull its image with. Served at every version
 * prefix, as dockerd serves them; outside a swarm each answers dockerd's 503.
 */
import type { ApiVersion } from '../../../protocol/versions.ts';
import type { RegistryCredentials } from '../model/images/image-registry.ts';
import { imageWarnings } from '../model/swarm/service-store.ts';
import { readJsonBody } from './json-body.ts';
import { listRoute } from './list-route.ts';
import { registryAuth, registryCredentials } from './registry-auth-header.ts';
import { sendEmpty, sendJson, sendText } from './replies.ts';
import type { Route } from './route-table.ts';
import { parseServiceSpec } from './service-spec-body.ts';
import { parseObjectVersion } from './swarm-bodies.ts';
import { serviceView } from './swarm-views.ts';

const LIST_FILTERS = ['id', 'label', 'mode', 'name'] as const;

export const serviceRoutes: Route[] = [
  listRoute({
    path: '/services',
    filterNames: LIST_FILTERS,
    list: ({ model }, filters) => model.services.list(filters),
    view: () => serviceView,
  }),
  {
    method: 'POST',
    path: '/services/create',
    handle: async ({ request, response, model, version }) => {
      const service = model.services.create(parseServiceSpec(await readJsonBody(request)), serviceCredentials(request.headers['x-registry-auth'], version));
      const warnings = imageWarnings(service.spec);
      sendJson(response, 201, { ID: service.id, ...(warnings.length > 0 && { Warnings: warnings }) });
    },
  },
  {
    method: 'GET',
    path: '/services/{id}',
    handle: ({ response, model, params }) => sendJson(response, 200, serviceView(model.services.find(params.id ?? ''))),
  },
  {
    method: 'POST',
    path: '/services/{id}/update',
    handle: async ({ request, response, model, params, query, version, dialect, personality }) => {
      const service = model.services.find(params.id ?? '');
      const spec = parseServiceSpec(await readJsonBody(request));
      model.services.update(service, parseObjectVersion('service', query.get('version')), spec, serviceCredentials(request.headers['x-registry-auth'], version));
      // The spec's "200 empty, `text/plain; charset=utf-8`" (spec/2 §4.6), as swarm.services.update
      // asserts, in either personality. Only a Docker client's fake (the docker dialect, dockerd's
      // personality) answers dockerd's JSON (`{"Warnings": …}` when it has some), which the docker CLI
      // decodes and swarm.services.update-answer pins (an entry of fixtures/expectations/reference.json).
      const warnings = imageWarnings(service.spec);
      if (dialect.name === 'docker' && !personality.emptyServiceUpdate) sendJson(response, 200, warnings.length > 0 ? { Warnings: warnings } : {});
      else sendText(response, 200, '');
    },
  },
  {
    method: 'DELETE',
    path: '/services/{id}',
    handle: ({ response, model, params }) => {
      model.services.remove(model.services.find(params.id ?? ''));
      sendEmpty(response, 200);
    },
  },
];

/** X-Registry-Auth of a create or update: the credentials the service's tasks pull with. */
function serviceCredentials(header: string | string[] | undefined, version: ApiVersion): RegistryCredentials {
  return registryCredentials(registryAuth(header), version);
}
