/**
 * A build ends when its client goes (spec/1 §9.4: from 1.18 a build is cancelled when the request is
 * closed): the container of the RUN step that is running when the connection closes stops, long
 * before its `sleep 300` would end. As dockerd does it, the container is removed too (spec/2 §4.1
 * removes intermediate containers "after success", or always with forcerm: a cancelled build with
 * neither may keep its stopped container). The build's label finds the step's container: the list
 * is read whole and picked by the Labels of its items (spec/1 §2.1), for spec/1 §4.1 gives the list
 * no label filter.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { openStream } from '../../harness/client/streamed-response.ts';
import { until, WaitTimeout } from '../../harness/wait-until.ts';
import { BUILD_TIMEOUT_MS, buildContext } from './build-steps.ts';

/** How long a daemon may take to stop (and remove) the step's container once the client has gone. */
const CANCEL_TIMEOUT_MS = 20_000;

/** The ids of the build's containers: all of them, or the running ones only (GET /containers/json without `all`). */
async function buildContainers({ engine, expect }: CheckContext, label: string, running: boolean): Promise<string[]> {
  const [key, value] = label.split('=') as [string, string];
  const res = await engine.get('/containers/json', { query: running ? {} : { all: 1 } });
  expect(res.status, 'GET /containers/json status').toBe(200);
  return res.json<{ Id: string; Labels?: Record<string, string> | null }[]>()
    .filter((container) => container.Labels?.[key] === value)
    .map((container) => container.Id.slice(0, 12));
}

/** Starts a build of the long-running context, waits for its RUN step to run, and closes the connection; returns the build's label. */
async function cancelledBuild(context: CheckContext): Promise<string> {
  const { tar, label } = await buildContext(context, 'long-run');
  const stream = await openStream(context.engine, context.session.target.connection, '/build', {}, { method: 'POST', contentType: 'application/tar', body: tar });
  try {
    context.expect(stream.status, 'POST /build status').toBe(200);
    await until(() => buildContainers(context, label, true), (ids) => ids.length > 0, { timeoutMs: CANCEL_TIMEOUT_MS, intervalMs: 200, what: 'the RUN step of the build to run' });
  } finally {
    stream.close();
  }
  return label;
}

/** How long the spec-level check lets a daemon go on removing the stopped container before it ends. */
const SETTLE_MS = 8_000;

/** The build's containers (running ones only, or all) once none is left or `timeoutMs` has passed. */
async function leftAfterClose(context: CheckContext, label: string, running: boolean, timeoutMs = CANCEL_TIMEOUT_MS): Promise<string[]> {
  try {
    return await until(() => buildContainers(context, label, running), (ids) => ids.length === 0, { timeoutMs, intervalMs: 200, what: 'the build\'s containers to go' });
  } catch (error) {
    if (!(error instanceof WaitTimeout)) throw error;
    return buildContainers(context, label, running);
  }
}

check('build.cancel.connection-closed', {
  title: 'closing the connection of a build whose RUN step runs stops that step\'s container',
  spec: '1 §9.4, §4.1, §2.1',
  quote: ['build cancelled when the request is closed', 'all (boolean, default false: only running are listed)', '| Labels | object string to string |'],
  since: '1.18',
  tags: ['state', 'version'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build', '1:version-rule:1.18:build-cancelled-on-close'],
}, async (context) => {
  const label = await cancelledBuild(context);
  const running = await leftAfterClose(context, label, true);
  context.expect(running, `running containers of the build ${CANCEL_TIMEOUT_MS} ms after its connection closed`).toEqual([]);
  // Not judged: a daemon that goes on to remove the stopped container is let finish, so that the
  // check's own removal of what the build left does not run into it.
  await leftAfterClose(context, label, false, SETTLE_MS);
});

check('build.cancel.connection-closed-removes', {
  title: 'closing the connection of a build whose RUN step runs kills and removes that step\'s container (as dockerd)',
  spec: '1 §9.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
}, async (context) => {
  const label = await cancelledBuild(context);
  const left = await leftAfterClose(context, label, false);
  context.expect(left, `containers of the build ${CANCEL_TIMEOUT_MS} ms after its connection closed`).toEqual([]);
});
