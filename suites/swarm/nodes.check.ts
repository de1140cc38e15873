/**
 * Nodes (Docker's endpoints; the spec leaves them "not shown"): the node a task runs on is found by
 * the id the task names, and an unknown node is a 404, as for every object of spec/1 §7.
 */
import { check, type CheckMeta } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { ownService, runningTasks } from './swarm-steps.ts';

const NODES: Omit<CheckMeta, 'title'> = { spec: '2 §4.6', since: '1.24', tags: ['state'], requires: ['swarm'] };

check('swarm.nodes.of-task', { ...NODES, level: 'docker', seen: 'dockerd 20.10.24', title: 'GET /nodes/{id} with the NodeID of a running task answers that node' }, async (context) => {
  const id = await ownService(context);
  const [task] = await runningTasks(context, id, 1);
  const res = await context.engine.get(`/nodes/${task?.NodeID ?? ''}`);
  context.expect(res.status, 'GET /nodes/{id} status').toBe(200);
  context.expect(res.json<{ ID: string }>().ID, 'the node\'s ID').toBe(task?.NodeID);
});

check('swarm.nodes.not-found', { ...NODES, level: 'docker', seen: 'dockerd 20.10.24', title: 'GET /nodes/{id} of an unknown node answers 404', tags: ['error'] }, async (context) => {
  const res = await context.engine.get(`/nodes/${context.make.uniqueName('none')}`);
  context.expect(res.status, 'GET /nodes/{id} status for an unknown node').toBe(404);
  expectErrorBodyOfVersion(context, res);
});
