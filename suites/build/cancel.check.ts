/**
 * A build ends when its client goes (spec/1 §9.4: from 1.18 a build is cancelled when the request is
 * closed): the container of the RUN step that is running when the connection closes is killed and
 * removed, long before its `sleep 300` would end. The build's label finds the step's container.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { openStream } from '../../harness/client/streamed-response.ts';
import { until, WaitTimeout } from '../../harness/wait-until.ts';
import { BUILD_TIMEOUT_MS, buildContext } from './build-steps.ts';

/** How long a daemon may take to kill and remove the step's container once the client has gone. */
const CANCEL_TIMEOUT_MS = 20_000;

/** The ids of the build's containers, the running ones only when `running`. */
async function buildContainers({ engine, expect }: CheckContext, label: string, running: boolean): Promise<string[]> {
  const filters = { label: [label], ...(running && { status: ['running'] }) };
  const res = await engine.get('/containers/json', { query: { all: 1, filters: JSON.stringify(filters) } });
  expect(res.status, 'GET /containers/json status').toBe(200);
  return res.json<{ Id: string }[]>().map((container) => container.Id.slice(0, 12));
}

check('build.cancel.connection-closed', {
  title: 'closing the connection of a build whose RUN step runs kills and removes that step\'s container',
  spec: '1 §9.4',
  since: '1.18',
  tags: ['state', 'version'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build', '1:version-rule:1.18:build-cancelled-on-close'],
}, async (context) => {
  const { tar, label } = await buildContext(context, 'long-run');
  const stream = await openStream(context.engine, context.session.target.connection, '/build', {}, { method: 'POST', contentType: 'application/tar', body: tar });
  try {
    context.expect(stream.status, 'POST /build status').toBe(200);
    await until(() => buildContainers(context, label, true), (ids) => ids.length > 0, { timeoutMs: CANCEL_TIMEOUT_MS, intervalMs: 200, what: 'the RUN step of the build to run' });
  } finally {
    stream.close();
  }
  let left: string[];
  try {
    left = await until(() => buildContainers(context, label, false), (ids) => ids.length === 0, { timeoutMs: CANCEL_TIMEOUT_MS, intervalMs: 200, what: 'the build\'s containers to go' });
  } catch (error) {
    if (!(error instanceof WaitTimeout)) throw error;
    left = await buildContainers(context, label, false);
  }
  context.expect(left, `containers of the build ${CANCEL_TIMEOUT_MS} ms after its connection closed`).toEqual([]);
});
