/**
 * POST /commit (spec/2 §4.1): the query names the container and the new image, the body (optional)
 * is the config to give it, a container config as create takes it, unwrapped.
 */
import type { IncomingMessage } from 'node:http';
import { InvalidParameterError } from '../model/common/errors.ts';
import { emptyImageConfig, type ImageConfig } from '../model/images/image.ts';
import { COMMIT_CONFIG } from './body-structs.ts';
import { decodeGo, type DecodeOptions } from './json-fields.ts';
import { parseJsonBody, readBodyText } from './json-body.ts';
import { sendJson } from './replies.ts';
import type { Route } from './route-table.ts';

const BOOLEAN_FIELDS = ['AttachStdin', 'AttachStdout', 'AttachStderr', 'Tty', 'OpenStdin', 'StdinOnce'] as const;
const STRING_FIELDS = ['Hostname', 'Domainname', 'User', 'WorkingDir', 'Image'] as const;

export const commitRoutes: Route[] = [
  {
    method: 'POST',
    path: '/commit',
    handle: async ({ request, response, model, query, personality, version }) => {
      const config = commitConfig(request, await readBodyText(request), personality.decoding(version));
      const name = query.get('container') ?? '';
      if (name === '') throw new InvalidParameterError('invalid name or ID supplied: ""');
      const image = await model.commits.commit(model.containers.find(name), {
        repo: query.get('repo') ?? '',
        tag: query.get('tag') ?? '',
        comment: query.get('comment') ?? '',
        author: query.get('author') ?? '',
        pause: personality.booleanQuery(query.get('pause'), true),
        changes: query.getAll('changes'),
        ...(config && { config }),
      });
      sendJson(response, 201, { Id: image.id });
    },
  },
];

type DecodedConfig = Partial<ImageConfig>;

/**
 * The body's config over an empty one; none for an empty body. A body that does not decode is the
 * client's mistake: 400 in Go's words (dockerd answers 500, but spec/2 §4.1's row is not 500-only).
 */
function commitConfig(request: IncomingMessage, text: string, decoding: DecodeOptions): ImageConfig | undefined {
  const body = parseJsonBody(request, text);
  const fields = body === undefined || body === null ? undefined : decodeGo<DecodedConfig>(body, COMMIT_CONFIG, decoding);
  if (!fields) return undefined;
  const config = emptyImageConfig();
  for (const name of BOOLEAN_FIELDS) config[name] = fields[name] ?? false;
  for (const name of STRING_FIELDS) config[name] = fields[name] ?? '';
  config.Env = fields.Env ?? [];
  config.Cmd = fields.Cmd ?? null;
  config.Entrypoint = fields.Entrypoint ?? null;
  config.Labels = fields.Labels ?? {};
  config.ExposedPorts = fields.ExposedPorts ?? null;
  config.Volumes = fields.Volumes ?? null;
  config.OnBuild = fields.OnBuild ?? null;
  if (fields.NetworkDisabled === true) config.NetworkDisabled = true;
  if (fields.StopSignal) config.StopSignal = fields.StopSignal;
  return config;
}
