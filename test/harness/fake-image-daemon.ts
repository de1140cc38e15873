/**
 * A daemon that knows just enough of containers and images for the harness's removal code: list
 * (with label filters), delete a container, untag a name or delete an image by id with dockerd's
 * rules (an image with a child is a conflict; deleting an image prunes its untagged parents). It
 * records the DELETE requests it served, so that tests can say what was removed and in what order.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EngineClient } from '../../harness/client/engine-client.ts';
import { createDispatcher } from '../../harness/client/dispatcher.ts';

export interface FakeImage {
  Id: string;
  ParentId: string;
  RepoTags: string[];
  Labels: Record<string, string> | null;
}

export interface FakeContainer {
  Id: string;
  Labels: Record<string, string>;
}

export interface FakeImageDaemon {
  /** an unversioned client; `at(version)` gives one under a prefix the fake does not route */
  engine: EngineClient;
  at(version: string): EngineClient;
  images: FakeImage[];
  containers: FakeContainer[];
  /** `DELETE /images/<name or id>` and `DELETE /containers/<id>`, in the order served */
  deletions: string[];
  close(): Promise<void>;
}

/** Whether `labels` has every `key` or `key=value` of the label filter. */
function matchesLabels(labels: Record<string, string> | null, wanted: string[]): boolean {
  return wanted.every((filter) => {
    const [key = '', value] = filter.split('=', 2);
    return labels?.[key] !== undefined && (value === undefined || labels[key] === value);
  });
}

export async function startFakeImageDaemon(images: FakeImage[], containers: FakeContainer[] = []): Promise<FakeImageDaemon> {
  const state = { images: [...images], containers: [...containers] };
  const deletions: string[] = [];
  const send = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const removeImage = (image: FakeImage): string[] => {
    state.images = state.images.filter((other) => other !== image);
    const parent = state.images.find((other) => other.Id === image.ParentId);
    const orphaned = parent && parent.RepoTags.length === 0 && !state.images.some((other) => other.ParentId === parent.Id);
    return [image.Id, ...(orphaned ? removeImage(parent) : [])];
  };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const labels = (JSON.parse(url.searchParams.get('filters') ?? '{}') as { label?: string[] }).label ?? [];
    const target = decodeURIComponent(url.pathname.split('/').slice(2).join('/'));
    if (request.method === 'GET' && url.pathname === '/containers/json') {
      send(response, 200, state.containers.filter((container) => matchesLabels(container.Labels, labels)));
    } else if (request.method === 'GET' && url.pathname === '/images/json') {
      send(response, 200, state.images.filter((image) => matchesLabels(image.Labels, labels)));
    } else if (request.method === 'DELETE' && url.pathname.startsWith('/containers/')) {
      deletions.push(`DELETE /containers/${target}`);
      state.containers = state.containers.filter((container) => container.Id !== target);
      response.writeHead(204).end();
    } else if (request.method === 'DELETE' && url.pathname.startsWith('/images/')) {
      deletions.push(`DELETE /images/${target}`);
      const named = state.images.find((image) => image.RepoTags.includes(target));
      const byId = state.images.find((image) => image.Id === target);
      if (named) {
        named.RepoTags = named.RepoTags.filter((name) => name !== target);
        const last = named.RepoTags.length === 0 && !state.images.some((image) => image.ParentId === named.Id);
        send(response, 200, [{ Untagged: target }, ...(last ? removeImage(named).map((id) => ({ Deleted: id })) : [])]);
      } else if (!byId) {
        send(response, 404, { message: `No such image: ${target}` });
      } else if (state.images.some((image) => image.ParentId === byId.Id)) {
        send(response, 409, { message: 'conflict: image has dependent child images' });
      } else {
        send(response, 200, removeImage(byId).map((id) => ({ Deleted: id })));
      }
    } else {
      send(response, 404, { message: 'page not found' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const connection = { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  const dispatcher = createDispatcher(connection);
  return {
    engine: new EngineClient(connection, dispatcher, undefined),
    at: (version) => new EngineClient(connection, dispatcher, version),
    get images() {
      return state.images;
    },
    get containers() {
      return state.containers;
    },
    deletions,
    close: async () => {
      await dispatcher.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
