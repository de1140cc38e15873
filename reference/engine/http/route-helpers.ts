/** What most container handlers start with: the container the path names, and a signal for a client that left. */
import type { Container } from '../model/containers/container.ts';
import type { RouteContext } from './route-table.ts';

/** The container `{id}` names (id, name or unique prefix): NotFoundError otherwise. */
export function containerOf({ model, params }: RouteContext): Container {
  return model.containers.find(params.id ?? '');
}

/** Aborts when the connection closes before the answer is complete, so that long waits and streams end with it. */
export function clientGone({ response }: RouteContext): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => controller.abort());
  return controller.signal;
}
