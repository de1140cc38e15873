/**
 * Schemas of the swarm resources (spec/2 §2.7, §2.8; Docker's shapes where the spec says "not shown":
 * the create answer, the swarm, nodes, the Swarm section of /info). Open, like every schema here.
 * TASK_SCHEMA is Docker's task (swarm.tasks.docker-schema): the spec's task fields dockerd 20.10 leaves
 * out (Name, Instance, ServiceAnnotations, NetworksAttachments, Endpoint: Slot and omitempty took their
 * place) are typed, not required. The spec-level schemas (SPEC_*) require what spec/2 §2.7 and §2.8
 * list, and type only what they type.
 */
import { integer, string, timestamp } from './schema-parts.ts';

const id = { type: 'string', minLength: 1 } as const;
const version = { type: 'object', required: ['Index'], properties: { Index: integer } } as const;
const stringMap = { type: ['object', 'null'], additionalProperties: string } as const;
const meta = { ID: id, Version: version, CreatedAt: timestamp, UpdatedAt: timestamp } as const;
const META_FIELDS = ['ID', 'Version', 'CreatedAt', 'UpdatedAt'];

/** POST /services/create: 201 {ID}, Warnings when there are some. */
export const SERVICE_CREATED_SCHEMA = {
  type: 'object',
  required: ['ID'],
  properties: { ID: id, Warnings: { type: ['array', 'null'], items: string } },
} as const;

const TASK_SPEC_SCHEMA = {
  type: 'object',
  required: ['ContainerSpec'],
  properties: {
    ContainerSpec: {
      type: 'object',
      required: ['Image'],
      properties: { Image: id, Command: { type: 'array', items: string }, Args: { type: 'array', items: string }, Env: { type: 'array', items: string }, Labels: stringMap },
    },
    RestartPolicy: { type: 'object', properties: { Condition: { enum: ['none', 'on-failure', 'any'] }, Delay: integer, MaxAttempts: integer } },
  },
} as const;

const SERVICE_SPEC_SCHEMA = {
  type: 'object',
  required: ['Name', 'TaskTemplate', 'Mode'],
  properties: {
    Name: id,
    Labels: stringMap,
    TaskTemplate: TASK_SPEC_SCHEMA,
    Mode: {
      type: 'object',
      properties: { Replicated: { type: 'object', required: ['Replicas'], properties: { Replicas: integer } }, Global: { type: 'object' } },
    },
  },
} as const;

/** GET /services/{id} and each item of GET /services. */
export const SERVICE_SCHEMA = {
  type: 'object',
  required: [...META_FIELDS, 'Spec', 'Endpoint'],
  properties: { ...meta, Spec: SERVICE_SPEC_SCHEMA, PreviousSpec: SERVICE_SPEC_SCHEMA, Endpoint: { type: 'object' } },
} as const;

export const SERVICE_LIST_SCHEMA = { type: 'array', items: SERVICE_SCHEMA } as const;

/** GET /tasks/{id} and each item of GET /tasks. */
export const TASK_SCHEMA = {
  type: 'object',
  required: [...META_FIELDS, 'Spec', 'ServiceID', 'NodeID', 'Status', 'DesiredState'],
  properties: {
    ...meta,
    Name: string,
    Spec: TASK_SPEC_SCHEMA,
    ServiceID: id,
    Slot: integer,
    Instance: integer,
    NodeID: string,
    ServiceAnnotations: { type: 'object' },
    Status: {
      type: 'object',
      required: ['Timestamp', 'State'],
      properties: {
        Timestamp: timestamp,
        State: id,
        Message: string,
        Err: string,
        ContainerStatus: { type: 'object', properties: { ContainerID: string, PID: integer, ExitCode: integer } },
      },
    },
    DesiredState: id,
    NetworksAttachments: { type: ['array', 'null'] },
    Endpoint: { type: 'object' },
  },
} as const;


/**
 * Spec level (spec/2 §2.7): the inspect response's fields, and the types it gives. The inspect names
 * the template Spec.Task, the create body TaskTemplate: either is taken.
 */
const SPEC_TEMPLATE_SCHEMA = {
  type: 'object',
  required: ['ContainerSpec'],
  properties: {
    ContainerSpec: { type: 'object', required: ['Image'], properties: { Image: id, Env: { type: 'array', items: string } } },
    RestartPolicy: { type: 'object', properties: { Condition: { enum: ['none', 'on-failure', 'any'] } } },
  },
} as const;

export const SPEC_SERVICE_SCHEMA = {
  type: 'object',
  required: [...META_FIELDS, 'Spec', 'Endpoint'],
  properties: {
    ...meta,
    Spec: {
      type: 'object',
      required: ['Name', 'Mode'],
      anyOf: [{ required: ['TaskTemplate'] }, { required: ['Task'] }],
      properties: {
        Name: id,
        TaskTemplate: SPEC_TEMPLATE_SCHEMA,
        Task: SPEC_TEMPLATE_SCHEMA,
        Mode: { type: 'object', properties: { Replicated: { type: 'object', required: ['Replicas'], properties: { Replicas: integer } } } },
      },
    },
    Endpoint: { type: 'object' },
  },
} as const;

/**
 * Spec level (spec/2 §2.8): every field the task list gives, with the types it gives (Instance an
 * integer; NetworksAttachments an array) and no others; the template in Spec as the service's (§2.7).
 */
export const SPEC_TASK_SCHEMA = {
  type: 'object',
  required: [...META_FIELDS, 'Name', 'Spec', 'ServiceID', 'Instance', 'NodeID', 'ServiceAnnotations', 'Status', 'DesiredState', 'NetworksAttachments', 'Endpoint'],
  properties: {
    ID: id,
    Version: { type: 'object', required: ['Index'] },
    Spec: SPEC_TEMPLATE_SCHEMA,
    ServiceID: id,
    Instance: integer,
    Status: { type: 'object', required: ['Timestamp', 'State', 'Message', 'ContainerStatus'], properties: { State: id } },
    DesiredState: id,
    NetworksAttachments: { type: 'array' },
    Endpoint: { type: 'object' },
  },
} as const;

export const SPEC_TASK_LIST_SCHEMA = { type: 'array', items: SPEC_TASK_SCHEMA } as const;

/** GET /nodes/{id} and each item of GET /nodes, in Docker's shape. */
export const NODE_SCHEMA = {
  type: 'object',
  required: [...META_FIELDS, 'Spec', 'Description', 'Status'],
  properties: {
    ...meta,
    Spec: { type: 'object', required: ['Role', 'Availability'], properties: { Labels: stringMap, Role: { enum: ['manager', 'worker'] }, Availability: { enum: ['active', 'pause', 'drain'] } } },
    Description: {
      type: 'object',
      required: ['Hostname', 'Platform', 'Resources', 'Engine'],
      properties: {
        Hostname: string,
        Platform: { type: 'object', required: ['Architecture', 'OS'], properties: { Architecture: string, OS: string } },
        Resources: { type: 'object', required: ['NanoCPUs', 'MemoryBytes'], properties: { NanoCPUs: integer, MemoryBytes: integer } },
        Engine: { type: 'object', required: ['EngineVersion'], properties: { EngineVersion: string } },
      },
    },
    Status: { type: 'object', required: ['State'], properties: { State: string, Addr: string } },
    ManagerStatus: { type: 'object', required: ['Leader', 'Reachability', 'Addr'], properties: { Leader: { type: 'boolean' }, Reachability: string, Addr: string } },
  },
} as const;

export const NODE_LIST_SCHEMA = { type: 'array', items: NODE_SCHEMA } as const;

const CLUSTER_PROPERTIES = { ...meta, Spec: { type: 'object', required: ['Name'], properties: { Name: string, Labels: stringMap, Orchestration: { type: 'object' }, Raft: { type: 'object' }, Dispatcher: { type: 'object' }, CAConfig: { type: 'object' } } } } as const;

/** GET /swarm, in Docker's shape. */
export const SWARM_SCHEMA = {
  type: 'object',
  required: [...META_FIELDS, 'Spec', 'JoinTokens'],
  properties: { ...CLUSTER_PROPERTIES, JoinTokens: { type: 'object', required: ['Worker', 'Manager'], properties: { Worker: id, Manager: id } } },
} as const;

/** The Swarm section of GET /info (from 1.24) on a swarm manager. */
export const INFO_SWARM_SCHEMA = {
  type: 'object',
  required: ['NodeID', 'NodeAddr', 'LocalNodeState', 'ControlAvailable', 'Error', 'RemoteManagers', 'Nodes', 'Managers', 'Cluster'],
  properties: {
    NodeID: id,
    NodeAddr: string,
    LocalNodeState: { const: 'active' },
    ControlAvailable: { const: true },
    Error: string,
    RemoteManagers: { type: 'array', items: { type: 'object', required: ['NodeID', 'Addr'], properties: { NodeID: id, Addr: string } } },
    Nodes: integer,
    Managers: integer,
    Cluster: { type: 'object', required: [...META_FIELDS, 'Spec'], properties: CLUSTER_PROPERTIES },
  },
} as const;
