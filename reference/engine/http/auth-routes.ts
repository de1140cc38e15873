/**
 * POST /auth (spec/2 §4.2): a login to the registry the body names, as dockerd's: the token service
 * behind the registry's challenge is asked for an offline token with the credentials, and the
 * refresh token it gives comes back as IdentityToken (left out when it gives none: "when the
 * registry supports it"). Credentials it refuses, and a body that does not decode, answer 500, the
 * spec's only error status (and dockerd's).
 */
import { login } from '../model/images/image-registry.ts';
import { AUTH_CONFIG } from './body-structs.ts';
import { parseJsonBody, readBodyText } from './json-body.ts';
import { decodeGo, refusedAsServerError } from './json-fields.ts';
import { registryCredentials } from './registry-auth-header.ts';
import { sendEmpty, sendJson } from './replies.ts';
import type { Route } from './route-table.ts';

type AuthConfig = Partial<Record<'username' | 'password' | 'identitytoken' | 'serveraddress', string>>;

export const authRoutes: Route[] = [
  {
    method: 'POST',
    path: '/auth',
    handle: async ({ request, response, model, version, personality }) => {
      const text = await readBodyText(request);
      const { username, password, identitytoken, serveraddress } = refusedAsServerError(() => decodeGo<AuthConfig>(parseJsonBody(request, text) ?? {}, AUTH_CONFIG));
      const credentials = registryCredentials({ ...(username !== undefined && { username }), ...(password !== undefined && { password }), ...(identitytoken !== undefined && { identitytoken }) }, version);
      const { status, identityToken } = await login(model.registries, serveraddress ?? '', credentials);
      if (identityToken === '' && personality.loginWithoutContent) return sendEmpty(response, 204);
      sendJson(response, 200, { ...(identityToken !== '' && { IdentityToken: identityToken }), Status: status });
    },
  },
];
