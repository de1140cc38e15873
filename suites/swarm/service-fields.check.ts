/**
 * The fields of a service spec (spec/2 §2.7), one check per field or group: a service created with
 * the field inspects with it, at the same place in Spec. The services have no replicas, so no task
 * runs: a mount source, a user or a constraint is only stored, never used.
 *
 * Where the spec's wording and the engine's names differ, the checks send what the spec's own inspect
 * and samples name: Resources.Reservations (the inspect's name for the create body's "Reservation"),
 * RestartPolicy.MaxAttempts (the sample's, for "Attempts"), Placement as {Constraints}, Networks as
 * [{Target}], and EndpointSpec.Ports as [{Protocol, TargetPort}].
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { ownNetwork } from '../networks/network-steps.ts';
import { inspectService, serviceSpec, type ServiceView } from './swarm-steps.ts';

/** Where a case's fields go in the spec, and where the inspected Spec must show them. */
interface SpecFields {
  spec?: Record<string, unknown>;
  taskTemplate?: Record<string, unknown>;
  containerSpec?: Record<string, unknown>;
}

interface FieldCase {
  /** the check id's last part */
  name: string;
  /** field paths under `2:POST /services/create:body:` */
  covers: string[];
  fields: (context: CheckContext) => SpecFields | Promise<SpecFields>;
}

const SECOND_NS = 1_000_000_000;

const CASES: FieldCase[] = [
  { name: 'args', covers: ['TaskTemplate.ContainerSpec.Args'], fields: () => ({ containerSpec: { Args: ['-c', 'echo args'] } }) },
  { name: 'env', covers: ['TaskTemplate.ContainerSpec.Env'], fields: () => ({ containerSpec: { Env: ['SHIPSHAPE_ONE=1', 'SHIPSHAPE_TWO=two words'] } }) },
  { name: 'dir', covers: ['TaskTemplate.ContainerSpec.Dir'], fields: () => ({ containerSpec: { Dir: '/tmp' } }) },
  { name: 'user', covers: ['TaskTemplate.ContainerSpec.User'], fields: () => ({ containerSpec: { User: '1000:1000' } }) },
  { name: 'container-labels', covers: ['TaskTemplate.ContainerSpec.Labels'], fields: () => ({ containerSpec: { Labels: { 'shipshape.container': 'labelled' } } }) },
  {
    name: 'volume-mount',
    covers: [
      'TaskTemplate.ContainerSpec.Mounts.Target',
      'TaskTemplate.ContainerSpec.Mounts.Source',
      'TaskTemplate.ContainerSpec.Mounts.Type',
      'TaskTemplate.ContainerSpec.Mounts.ReadOnly',
      'TaskTemplate.ContainerSpec.Mounts.VolumeOptions.NoCopy',
      'TaskTemplate.ContainerSpec.Mounts.VolumeOptions.Labels',
      'TaskTemplate.ContainerSpec.Mounts.VolumeOptions.DriverConfig',
    ],
    fields: ({ make }) => ({
      containerSpec: {
        Mounts: [{
          Type: 'volume',
          Source: make.uniqueName('vol'),
          Target: '/data',
          ReadOnly: true,
          VolumeOptions: { NoCopy: true, Labels: { 'shipshape.volume': 'labelled' }, DriverConfig: { Name: 'local', Options: { type: 'tmpfs', device: 'tmpfs' } } },
        }],
      },
    }),
  },
  {
    name: 'bind-mount',
    covers: ['TaskTemplate.ContainerSpec.Mounts.Target', 'TaskTemplate.ContainerSpec.Mounts.Source', 'TaskTemplate.ContainerSpec.Mounts.Type', 'TaskTemplate.ContainerSpec.Mounts.BindOptions.Propagation'],
    fields: () => ({ containerSpec: { Mounts: [{ Type: 'bind', Source: '/tmp', Target: '/host-tmp', BindOptions: { Propagation: 'rslave' } }] } }),
  },
  { name: 'log-driver', covers: ['TaskTemplate.LogDriver'], fields: () => ({ taskTemplate: { LogDriver: { Name: 'json-file', Options: { 'max-size': '1m' } } } }) },
  {
    name: 'resources',
    covers: ['TaskTemplate.Resources.Limits', 'TaskTemplate.Resources.Reservation'],
    fields: () => ({ taskTemplate: { Resources: { Limits: { NanoCPUs: 500_000_000, MemoryBytes: 64 * 1024 * 1024 }, Reservations: { NanoCPUs: 100_000_000, MemoryBytes: 32 * 1024 * 1024 } } } }),
  },
  {
    name: 'restart-policy',
    covers: ['TaskTemplate.RestartPolicy.Delay', 'TaskTemplate.RestartPolicy.Attempts', 'TaskTemplate.RestartPolicy.Window'],
    fields: () => ({ taskTemplate: { RestartPolicy: { Condition: 'on-failure', Delay: 2 * SECOND_NS, MaxAttempts: 3, Window: 60 * SECOND_NS } } }),
  },
  { name: 'placement', covers: ['TaskTemplate.Placement'], fields: () => ({ taskTemplate: { Placement: { Constraints: ['node.role==manager'] } } }) },
  {
    name: 'update-config',
    covers: ['UpdateConfig.Parallelism', 'UpdateConfig.Delay', 'UpdateConfig.FailureAction'],
    fields: () => ({ spec: { UpdateConfig: { Parallelism: 2, Delay: SECOND_NS, FailureAction: 'pause' } } }),
  },
  { name: 'networks', covers: ['Networks'], fields: async (context) => ({ spec: { Networks: [{ Target: await ownNetwork(context, { Driver: 'overlay' }) }] } }) },
  { name: 'endpoint-mode', covers: ['EndpointSpec.Mode'], fields: () => ({ spec: { EndpointSpec: { Mode: 'dnsrr' } } }) },
  { name: 'endpoint-ports', covers: ['EndpointSpec.Mode', 'EndpointSpec.Ports'], fields: () => ({ spec: { EndpointSpec: { Mode: 'vip', Ports: [{ Protocol: 'tcp', TargetPort: 8080 }] } } }) },
];

/** The base spec (no replicas) with the case's fields in their places. */
function specWith(context: CheckContext, fields: SpecFields): Record<string, unknown> {
  const base = serviceSpec(context, { replicas: 0 });
  const template = base.TaskTemplate as Record<string, unknown>;
  return {
    ...base,
    ...fields.spec,
    TaskTemplate: { ...template, ...fields.taskTemplate, ContainerSpec: { ...(template.ContainerSpec as Record<string, unknown>), ...fields.containerSpec } },
  };
}

/** The inspected Spec's parts where the case's fields belong. */
function inspectedParts(service: ServiceView, fields: SpecFields): SpecFields {
  const spec = service.Spec as unknown as Record<string, unknown>;
  const template = (spec.TaskTemplate ?? {}) as Record<string, unknown>;
  const pick = (from: Record<string, unknown>, given: Record<string, unknown> | undefined) => given && Object.fromEntries(Object.keys(given).map((key) => [key, from[key]]));
  return {
    ...(fields.spec && { spec: pick(spec, fields.spec) }),
    ...(fields.taskTemplate && { taskTemplate: pick(template, fields.taskTemplate) }),
    ...(fields.containerSpec && { containerSpec: pick((template.ContainerSpec ?? {}) as Record<string, unknown>, fields.containerSpec) }),
  };
}

for (const { name, covers, fields } of CASES) {
  check(`swarm.services.field-${name}`, {
    title: `a service created with ${covers.join(', ')} inspects with what it was given there`,
    spec: '2 §2.7',
    since: '1.24',
    tags: ['state'],
    requires: ['swarm'],
    covers: covers.map((field) => `2:POST /services/create:body:${field}`),
  }, async (context) => {
    const given = await fields(context);
    const id = await context.make.service(specWith(context, given));
    const service = await inspectService(context, id);
    context.expect(inspectedParts(service, given), `the inspected Spec of service ${id} where the fields were given`).toMatchObject(given);
  });
}
