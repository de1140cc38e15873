/**
 * POST /auth (spec/2 §4.2): a login to the registry the body names, as dockerd's: the token service
 * behind the registry's challenge is asked for an offline token with the credentials, and the
 * refresh token it gives comes back as IdentityToken (left out when it gives none: "when the
 * registry supports it"). Credentials it refuses answer 500, the spec's only error status.
 */
import { login } from '../model/image-registry.ts';
import { readJsonBody } from './json-body.ts';
import { registryCredentials } from './registry-auth-header.ts';
import { sendEmpty, sendJson } from './replies.ts';
import type { Route } from './route-table.ts';

export const authRoutes: Route[] = [
  {
    method: 'POST',
    path: '/auth',
    handle: async ({ request, response, model, version, personality }) => {
      const body = ((await readJsonBody(request)) ?? {}) as Record<string, unknown>;
      const text = (name: string) => (typeof body[name] === 'string' ? body[name] : undefined);
      const username = text('username');
      const password = text('password');
      const identitytoken = text('identitytoken');
      const credentials = registryCredentials({ ...(username !== undefined && { username }), ...(password !== undefined && { password }), ...(identitytoken !== undefined && { identitytoken }) }, version);
      const { status, identityToken } = await login(model.registries, text('serveraddress') ?? '', credentials);
      if (identityToken === '' && personality.loginWithoutContent) return sendEmpty(response, 204);
      sendJson(response, 200, { ...(identityToken !== '' && { IdentityToken: identityToken }), Status: status });
    },
  },
];
