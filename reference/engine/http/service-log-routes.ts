/**
 * GET /services/{id}/logs (Docker's, API 1.29, which dockerd 20.10 serves at every version prefix; the
 * spec's service rows have no logs): the logs of the service's tasks' containers, in multiplexed
 * frames, with the container logs' query. dockerd refuses a request for neither stream with 500 here
 * (400 for a container), answers without a Content-Type, and with details puts the task's node,
 * service and task ids in front of each line.
 */
import { once } from 'node:events';
import { EngineError } from '../model/common/errors.ts';
import type { Task } from '../model/swarm/task.ts';
import { openLogStream } from './container-output-routes.ts';
import { logLine, parseLogQuery } from './log-query.ts';
import { writeFrames } from './raw-stream.ts';
import { clientGone } from './route-helpers.ts';
import type { Route, RouteContext } from './route-table.ts';

function detailsPrefix(task: Task): string {
  return `com.docker.swarm.node.id=${task.nodeId},com.docker.swarm.service.id=${task.service.id},com.docker.swarm.task.id=${task.id} `;
}

async function streamServiceLogs(context: RouteContext): Promise<void> {
  const { model, personality } = context;
  const service = model.services.find(context.params.id ?? '');
  const asked = parseLogQuery(context, EngineError);
  const signal = clientGone(context);
  const tasks = model.tasks.list().filter((task) => task.service === service && task.container !== undefined);
  const output = await openLogStream(context);
  // each task's log as it comes: dockerd merges the tasks' streams, in no order between them
  await Promise.all(tasks.map(async (task) => {
    const container = task.container;
    if (container === undefined) return;
    const details = asked.details ? detailsPrefix(task) : undefined;
    try {
      for await (const entry of model.operations.logs(container, { stdout: asked.stdout, stderr: asked.stderr, since: asked.since, tail: asked.tail, follow: asked.follow, signal })) {
        if (!writeFrames(output, entry.stream, logLine(entry, asked.timestamps, details), personality)) await once(output, 'drain', { signal });
      }
    } catch (error) {
      // The client went away while we waited for it to read: nothing left to answer.
      if (!signal.aborted) throw error;
    }
  }));
  output.end();
}

export const serviceLogRoutes: Route[] = [{ method: 'GET', path: '/services/{id}/logs', handle: streamServiceLogs }];
