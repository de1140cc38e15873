/**
 * POST /commit (spec/2 §4.1): the query names the container and the new image, the body (optional)
 * is the config to give it, a container config as create takes it, unwrapped.
 */
import { EngineError, InvalidParameterError } from '../model/errors.ts';
import { emptyImageConfig, type ImageConfig } from '../model/image.ts';
import { commandField } from './create-container-body.ts';
import { asObject, isBoolean, isPlainObject, isString, isStringList, isStringMap, optional } from './json-fields.ts';
import { readBodyText } from './json-body.ts';
import { sendJson } from './replies.ts';
import type { Route } from './route-table.ts';

const BOOLEAN_FIELDS = ['AttachStdin', 'AttachStdout', 'AttachStderr', 'Tty', 'OpenStdin', 'StdinOnce'] as const;
const STRING_FIELDS = ['Hostname', 'Domainname', 'User', 'WorkingDir', 'Image'] as const;

export const commitRoutes: Route[] = [
  {
    method: 'POST',
    path: '/commit',
    handle: async ({ request, response, model, query, personality }) => {
      const config = commitConfig(await readBodyText(request));
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

/** The body's config over an empty one; none for an empty body. A body that is not JSON is a 500, as dockerd's decoder error is. */
function commitConfig(text: string): ImageConfig | undefined {
  if (text.trim() === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new EngineError((error as Error).message);
  }
  if (body === null) return undefined;
  const fields = asObject(body, 'Config');
  const config = emptyImageConfig();
  for (const name of BOOLEAN_FIELDS) config[name] = optional(fields[name], name, isBoolean) ?? false;
  for (const name of STRING_FIELDS) config[name] = optional(fields[name], name, isString) ?? '';
  config.Env = optional(fields.Env, 'Env', isStringList) ?? [];
  config.Cmd = commandField(fields.Cmd, 'Cmd') ?? null;
  config.Entrypoint = commandField(fields.Entrypoint, 'Entrypoint') ?? null;
  config.Labels = optional(fields.Labels, 'Labels', isStringMap) ?? {};
  config.ExposedPorts = optional(fields.ExposedPorts, 'ExposedPorts', isPlainObject) ?? null;
  config.Volumes = optional(fields.Volumes, 'Volumes', isPlainObject) ?? null;
  config.OnBuild = optional(fields.OnBuild, 'OnBuild', isStringList) ?? null;
  if (optional(fields.NetworkDisabled, 'NetworkDisabled', isBoolean) === true) config.NetworkDisabled = true;
  const stopSignal = optional(fields.StopSignal, 'StopSignal', isString);
  if (stopSignal) config.StopSignal = stopSignal;
  return config;
}
