/**
 * Container endpoints that act on one container (spec/1 §3, §4.1): start, stop, restart, kill, wait,
 * pause, unpause, rename, resize, update. Requests are unpacked and version rules applied here; the
 * model's lifecycle and operations do the rest.
 */
import { atLeast, before } from '../../../protocol/versions.ts';
import { EngineError, InvalidParameterError, NotRunningError } from '../model/common/errors.ts';
import { signalNumber, UnknownSignalError } from '../process/index.ts';
import { parseHostConfig, parseUpdateBody, validationRules } from './host-config-body.ts';
import { HttpError } from '../../http-error.ts';
import { atoi, optionalInteger } from './integer-query.ts';
import { parseJsonBody, readBodyText, readJsonBody } from './json-body.ts';
import { sendEmpty, sendJson, sendText } from './replies.ts';
import { attachedStreamsBegun } from './attach-readiness.ts';
import { clientGone, containerOf } from './route-helpers.ts';
import type { Route } from './route-table.ts';

/** A JSON object is at least this long: a shorter start body (`{}`, `null`) counts as none, as on dockerd. */
const SHORTEST_HOST_CONFIG = 7;

/** dockerd's words in front of the model's: "Cannot stop container X: …", keeping the error's kind. */
async function explained<T>(prefix: string, action: () => Promise<T> | T): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    error.message = `${prefix}: ${error.message}`;
    throw error;
  }
}

function parseSignal(text: string | null): number | undefined {
  if (text === null || text === '') return undefined;
  try {
    return signalNumber(text);
  } catch (error) {
    if (error instanceof UnknownSignalError) throw new InvalidParameterError(error.message);
    throw error;
  }
}

export const containerActionRoutes: Route[] = [
  {
    method: 'POST',
    path: '/containers/{id*}/start',
    handle: async (context) => {
      const { request, response, model, version, personality } = context;
      const text = await readBodyText(request);
      let hostConfig;
      if (text.length > SHORTEST_HOST_CONFIG) {
        if (atLeast(version, '1.24')) {
          throw new InvalidParameterError('starting container with non-empty request body was deprecated since API v1.22 and removed in v1.24');
        }
        hostConfig = parseHostConfig(parseJsonBody(request, text), { version, personality });
      }
      const container = containerOf(context);
      await attachedStreamsBegun(container);
      model.lifecycle.start(container, { hostConfig, rules: validationRules(version) });
      sendEmpty(response, 204);
    },
  },
  {
    method: 'POST',
    path: '/containers/{id*}/stop',
    handle: async (context) => {
      const timeout = optionalInteger(context.query.get('t'));
      const container = containerOf(context);
      await explained(`Cannot stop container ${context.params.id}`, () => context.model.lifecycle.stop(container, timeout));
      sendEmpty(context.response, 204);
    },
  },
  {
    method: 'POST',
    path: '/containers/{id*}/restart',
    handle: async (context) => {
      const timeout = optionalInteger(context.query.get('t'));
      const container = containerOf(context);
      await explained(`Cannot restart container ${context.params.id}`, () => context.model.lifecycle.restart(container, timeout));
      sendEmpty(context.response, 204);
    },
  },
  {
    method: 'POST',
    path: '/containers/{id*}/kill',
    handle: async (context) => {
      const { query, model, version, params } = context;
      const signal = parseSignal(query.get('signal'));
      const container = containerOf(context);
      try {
        await explained(`Cannot kill container: ${params.id}`, () => model.lifecycle.kill(container, signal));
      } catch (error) {
        // Before 1.20 killing a container that is not running was not an error.
        if (!(error instanceof NotRunningError && before(version, '1.20'))) throw error;
      }
      sendEmpty(context.response, 204);
    },
  },
  {
    method: 'POST',
    path: '/containers/{id*}/wait',
    handle: async (context) => {
      const statusCode = await context.model.lifecycle.wait(containerOf(context), clientGone(context));
      sendJson(context.response, 200, { StatusCode: statusCode });
    },
  },
  {
    method: 'POST',
    path: '/containers/{id*}/pause',
    handle: (context) => {
      context.model.lifecycle.pause(containerOf(context));
      sendEmpty(context.response, 204);
    },
  },
  {
    method: 'POST',
    path: '/containers/{id*}/unpause',
    handle: (context) => {
      context.model.lifecycle.unpause(containerOf(context));
      sendEmpty(context.response, 204);
    },
  },
  {
    method: 'POST',
    path: '/containers/{id*}/rename',
    handle: (context) => {
      context.model.containers.rename(containerOf(context), context.query.get('name') ?? '');
      sendEmpty(context.response, 204);
    },
  },
  {
    method: 'POST',
    path: '/containers/{id*}/resize',
    handle: (context) => {
      const height = atoi(context.query.get('h') ?? '');
      const width = atoi(context.query.get('w') ?? '');
      try {
        context.model.operations.resize(containerOf(context), height, width);
      } catch (error) {
        // The row's "500 (cannot resize)", not dockerd's 409 (the row lists no 409), in either personality.
        if (error instanceof NotRunningError) throw new HttpError(500, error.message);
        throw error;
      }
      sendText(context.response, 200, '');
    },
  },
  {
    method: 'POST',
    path: '/containers/{id*}/update',
    handle: async (context) => {
      const { request, response, model, version, personality } = context;
      // The endpoint came with 1.22: before, the path is no route at all (unless later features are taken at every version).
      if (!atLeast(version, '1.22')) throw new HttpError(404, 'page not found');
      const update = parseUpdateBody(await readJsonBody(request), { version, personality });
      model.operations.update(containerOf(context), update, validationRules(version));
      // dockerd's answer when it has nothing to warn about: null, not an empty list.
      sendJson(response, 200, { Warnings: null });
    },
  },
];
