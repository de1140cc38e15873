/**
 * The shapes of the swarm resources (spec/2 §2.7, §2.8, and Docker's where the spec says "not
 * shown"): the create answer, services, tasks, nodes, the swarm, and the Swarm section of /info.
 * Swarm mode arrived at 1.24.
 */
import { check, type CheckMeta } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import {
  INFO_SWARM_SCHEMA,
  NODE_LIST_SCHEMA,
  NODE_SCHEMA,
  SERVICE_CREATED_SCHEMA,
  SERVICE_LIST_SCHEMA,
  SPEC_SERVICE_SCHEMA,
  SPEC_TASK_LIST_SCHEMA,
  SPEC_TASK_SCHEMA,
  SWARM_SCHEMA,
  TASK_SCHEMA,
} from '../../harness/schemas/swarm-schemas.ts';
import { createService, ownNodeId, ownService, runningTasks, serviceSpec, type ServiceView } from './swarm-steps.ts';

const SWARM: Omit<CheckMeta, 'title'> = { spec: '2 §2.7', since: '1.24', tags: ['schema'], requires: ['swarm'] };

check('swarm.services.create-schema', { ...SWARM, level: 'docker', seen: 'dockerd 20.10.24', title: 'POST /services/create answers 201 {ID} (Warnings when there are some)', spec: '2 §4.6', covers: ['2:POST /services/create', '2:POST /services/create:body:Name', '2:POST /services/create:body:Labels', '2:POST /services/create:body:TaskTemplate.ContainerSpec.Image', '2:POST /services/create:body:TaskTemplate.ContainerSpec.Command', '2:POST /services/create:body:TaskTemplate.ContainerSpec.StopGracePeriod', '2:POST /services/create:header:Content-type'] }, async (context) => {
  const res = await createService(context, serviceSpec(context));
  context.expect(res.status, 'POST /services/create status').toBe(201);
  assertMatchesSchema(res.json(), SERVICE_CREATED_SCHEMA, 'the create answer');
});

check('swarm.services.inspect-schema', { ...SWARM, spec: '2 §2.7', quote: ['Inspect response: ID, Version {Index (integer)}, CreatedAt, UpdatedAt (timestamps), Spec {Name, Task {ContainerSpec {Image}', 'Mode {Replicated {Replicas (integer)}}', 'Endpoint {Spec, ExposedPorts (array of {Protocol, Port, PublicPort}), VirtualIPs (array of {NetworkID, Addr})}', 'Env (array of VAR=value)', 'RestartPolicy {Condition (none, on-failure, any)'], title: 'GET /services/{id} has ID, Version.Index, CreatedAt, UpdatedAt, Spec {Name, Task or TaskTemplate .ContainerSpec.Image, Mode}, Endpoint', covers: ['2:GET /services/{id_or_name}', '2:GET /services/{id_or_name}:status:200'] }, async (context) => {
  const id = await ownService(context);
  const res = await context.engine.get(`/services/${id}`);
  context.expect(res.status, 'GET /services/{id} status').toBe(200);
  assertMatchesSchema(res.json(), SPEC_SERVICE_SCHEMA, 'the service');
});

check('swarm.services.list-schema', { ...SWARM, level: 'docker', seen: 'dockerd 20.10.24', title: 'GET /services lists services in the inspect shape' }, async (context) => {
  const id = await ownService(context);
  const res = await context.engine.get('/services');
  context.expect(res.status, 'GET /services status').toBe(200);
  const listed = res.json<ServiceView[]>();
  context.expect(listed.map((service) => service.ID), 'the services listed').toContain(id);
  assertMatchesSchema(listed.filter((service) => service.ID === id), SERVICE_LIST_SCHEMA, 'the list item');
});

check('swarm.tasks.list-schema', { ...SWARM, title: 'GET /tasks items have every task field: ID, Version, CreatedAt, UpdatedAt, Name, Spec, ServiceID, Instance, NodeID, ServiceAnnotations, Status, DesiredState, NetworksAttachments, Endpoint', spec: '2 §2.8, §2.7', quote: ['Fields: ID, Version {Index}, CreatedAt, UpdatedAt, Name, Spec (as a task template), ServiceID, Instance (integer), NodeID, ServiceAnnotations, Status {Timestamp, State, Message, ContainerStatus}, DesiredState, NetworksAttachments (array of {Network', 'Endpoint (same shape as the service Endpoint)', 'TaskTemplate {ContainerSpec {Image', 'Env (array of VAR=value)', 'RestartPolicy {Condition (none, on-failure, any)'], covers: ['2:GET /tasks', '2:GET /tasks:status:200'] }, async (context) => {
  const id = await ownService(context);
  // A task gets its NodeID once assigned (dockerd leaves it out before): judge one that runs.
  const [task] = await runningTasks(context, id, 1);
  const res = await context.engine.get('/tasks');
  context.expect(res.status, 'GET /tasks status').toBe(200);
  assertMatchesSchema(res.json<{ ID: string }[]>().filter((listed) => listed.ID === task?.ID), SPEC_TASK_LIST_SCHEMA, 'the list item');
});

check('swarm.tasks.inspect-schema', { ...SWARM, title: 'GET /tasks/{id} has the task fields', spec: '2 §2.8, §2.7', quote: ['Fields: ID, Version {Index}, CreatedAt, UpdatedAt, Name, Spec (as a task template), ServiceID, Instance (integer), NodeID, ServiceAnnotations, Status {Timestamp, State, Message, ContainerStatus}, DesiredState, NetworksAttachments (array of {Network', 'Endpoint (same shape as the service Endpoint)', 'TaskTemplate {ContainerSpec {Image', 'Env (array of VAR=value)', 'RestartPolicy {Condition (none, on-failure, any)'], covers: ['2:GET /tasks/{task id}', '2:GET /tasks/{task id}:status:200'] }, async (context) => {
  const id = await ownService(context);
  const [task] = await runningTasks(context, id, 1);
  const res = await context.engine.get(`/tasks/${task?.ID ?? ''}`);
  context.expect(res.status, 'GET /tasks/{id} status').toBe(200);
  assertMatchesSchema(res.json(), SPEC_TASK_SCHEMA, 'the task');
});

check('swarm.tasks.docker-schema', { ...SWARM, level: 'docker', seen: 'dockerd 20.10.24', title: 'GET /tasks/{id} in Docker\'s task shape: Slot, no Name, Instance or ServiceAnnotations required, Status.Err and ContainerStatus {ContainerID, PID, ExitCode}', spec: '2 §2.8' }, async (context) => {
  const id = await ownService(context);
  const [task] = await runningTasks(context, id, 1);
  const res = await context.engine.get(`/tasks/${task?.ID ?? ''}`);
  context.expect(res.status, 'GET /tasks/{id} status').toBe(200);
  assertMatchesSchema(res.json(), TASK_SCHEMA, 'the task');
});

check('swarm.nodes.list-schema', { ...SWARM, level: 'docker', seen: 'dockerd 20.10.24', title: 'GET /nodes lists the node /info names, in Docker\'s node shape', spec: '2 §4.6' }, async (context) => {
  const nodeId = await ownNodeId(context);
  const res = await context.engine.get('/nodes');
  context.expect(res.status, 'GET /nodes status').toBe(200);
  const listed = res.json<{ ID: string }[]>();
  context.expect(listed.map((node) => node.ID), 'the nodes listed').toContain(nodeId);
  assertMatchesSchema(listed, NODE_LIST_SCHEMA, 'the node list');
});

check('swarm.nodes.inspect-schema', { ...SWARM, level: 'docker', seen: 'dockerd 20.10.24', title: 'GET /nodes/{id} of the node /info names is that node, in Docker\'s node shape', spec: '2 §4.6' }, async (context) => {
  const nodeId = await ownNodeId(context);
  const res = await context.engine.get(`/nodes/${nodeId}`);
  context.expect(res.status, 'GET /nodes/{id} status').toBe(200);
  assertMatchesSchema(res.json(), NODE_SCHEMA, 'the node');
  context.expect(res.json<{ ID: string }>().ID, 'the node\'s ID').toBe(nodeId);
});

check('swarm.inspect.schema', { ...SWARM, level: 'docker', seen: 'dockerd 20.10.24', title: 'GET /swarm has ID, Version, CreatedAt, UpdatedAt, Spec and JoinTokens, in Docker\'s shape', spec: '2 §4.6' }, async (context) => {
  const res = await context.engine.get('/swarm');
  context.expect(res.status, 'GET /swarm status').toBe(200);
  assertMatchesSchema(res.json(), SWARM_SCHEMA, 'the swarm');
});

check('swarm.info.section', { ...SWARM, level: 'docker', seen: 'dockerd 20.10.24', title: 'GET /info has a Swarm section: an active manager with its NodeID, RemoteManagers and Cluster', spec: '2 §2.5', covers: ['2:GET /info'] }, async (context) => {
  const res = await context.engine.get('/info');
  context.expect(res.status, 'GET /info status').toBe(200);
  assertMatchesSchema(res.json<{ Swarm?: unknown }>().Swarm, INFO_SWARM_SCHEMA, 'the Swarm section of /info');
});
