/**
 * The fields of a service spec (spec/2 §2.7), one check per field or group: a service created with
 * the field inspects with it. The services have no replicas, so no task runs: a mount source, a user
 * or a constraint is only stored, never used.
 *
 * Spec level where the inspect response (spec/2 §2.7) lists the field: the check sends the create
 * body's own shape (Placement as an array of constraints, ports as `<port>/<protocol>` under
 * Endpoint.Spec) and, where the create body and the inspect name a field differently, both names
 * (Reservation and Reservations, Endpoint.Spec.Mode and EndpointSpec.Mode): a daemon ignores the
 * one it does not know (spec/1 §1). It finds the service by its name, since the create's answer is
 * "not shown", reads the template at Spec.TaskTemplate or Spec.Task (the create body's name and the
 * inspect's), and asserts only what the inspect lists.
 *
 * Docker level (seen on dockerd 20.10.24): fields the inspect does not list (ContainerSpec Args, Env,
 * Dir, User, Labels, Mounts; LogDriver; RestartPolicy timings; UpdateConfig Delay and FailureAction;
 * Networks) and Docker's shapes (Placement {Constraints}, Networks [{Target}], EndpointSpec.Ports
 * [{Protocol, TargetPort}]) round-trip unchanged at Spec.TaskTemplate.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { ownNetwork } from '../networks/network-steps.ts';
import { createService, inspectService, serviceSpec, templateOf } from './swarm-steps.ts';

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
  /** the spec/2 §2.7 text naming the case's fields */
  quote: string[];
  /** docker: dockerd's round trip of a field the inspect does not list, or of Docker's shape of it */
  docker?: boolean;
  /** what the create sends */
  fields: (context: CheckContext) => SpecFields | Promise<SpecFields>;
  /** what the inspected Spec must show, where that is not all that was sent */
  shows?: (given: SpecFields) => SpecFields;
  /** an assertion of its own on the inspected service, in place of `shows` */
  judge?: (context: CheckContext, service: Record<string, unknown>) => void;
}
const SECOND_NS = 1_000_000_000;
const CONTAINER_SPEC_QUOTE = 'TaskTemplate {ContainerSpec {Image, Command, Args, Env (array of VAR=value), Dir, User, Labels, Mounts';

const LIMITS = { NanoCPUs: 500_000_000, MemoryBytes: 64 * 1024 * 1024 };
const RESERVATION = { NanoCPUs: 100_000_000, MemoryBytes: 32 * 1024 * 1024 };
const ENDPOINT_QUOTE = 'Endpoint {Spec {Mode (vip or dnsrr), Ports (exposed ports, form `<port>/<tcp or udp>`)}, VirtualIPs}';

const CASES: FieldCase[] = [
  { name: 'args', docker: true, covers: ['TaskTemplate.ContainerSpec.Args'], quote: [CONTAINER_SPEC_QUOTE], fields: () => ({ containerSpec: { Args: ['-c', 'echo args'] } }) },
  { name: 'env', docker: true, covers: ['TaskTemplate.ContainerSpec.Env'], quote: [CONTAINER_SPEC_QUOTE], fields: () => ({ containerSpec: { Env: ['SHIPSHAPE_ONE=1', 'SHIPSHAPE_TWO=two words'] } }) },
  { name: 'dir', docker: true, covers: ['TaskTemplate.ContainerSpec.Dir'], quote: [CONTAINER_SPEC_QUOTE], fields: () => ({ containerSpec: { Dir: '/tmp' } }) },
  { name: 'user', docker: true, covers: ['TaskTemplate.ContainerSpec.User'], quote: [CONTAINER_SPEC_QUOTE], fields: () => ({ containerSpec: { User: '1000:1000' } }) },
  { name: 'container-labels', docker: true, covers: ['TaskTemplate.ContainerSpec.Labels'], quote: [CONTAINER_SPEC_QUOTE], fields: () => ({ containerSpec: { Labels: { 'shipshape.container': 'labelled' } } }) },
  {
    name: 'volume-mount',
    docker: true,
    covers: [
      'TaskTemplate.ContainerSpec.Mounts.Target',
      'TaskTemplate.ContainerSpec.Mounts.Source',
      'TaskTemplate.ContainerSpec.Mounts.Type',
      'TaskTemplate.ContainerSpec.Mounts.ReadOnly',
      'TaskTemplate.ContainerSpec.Mounts.VolumeOptions.NoCopy',
      'TaskTemplate.ContainerSpec.Mounts.VolumeOptions.Labels',
      'TaskTemplate.ContainerSpec.Mounts.VolumeOptions.DriverConfig',
    ],
    quote: [CONTAINER_SPEC_QUOTE, 'Mounts (array of {Target (container path), Source (volume name or host path), Type (bind or volume), ReadOnly (boolean)', 'VolumeOptions {NoCopy (boolean, default false), Labels, DriverConfig {Name, Options}}}'],
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
    docker: true,
    covers: ['TaskTemplate.ContainerSpec.Mounts.Target', 'TaskTemplate.ContainerSpec.Mounts.Source', 'TaskTemplate.ContainerSpec.Mounts.Type', 'TaskTemplate.ContainerSpec.Mounts.BindOptions.Propagation'],
    quote: [CONTAINER_SPEC_QUOTE, 'Mounts (array of {Target (container path), Source (volume name or host path), Type (bind or volume)', 'BindOptions {Propagation: one of [r]private, [r]shared, [r]slave}'],
    fields: () => ({ containerSpec: { Mounts: [{ Type: 'bind', Source: '/tmp', Target: '/host-tmp', BindOptions: { Propagation: 'rslave' } }] } }),
  },
  { name: 'log-driver', docker: true, covers: ['TaskTemplate.LogDriver'], quote: ['LogDriver {Name (json-file, syslog, journald, gelf, fluentd, awslogs, splunk, etwlogs, none), Options}'], fields: () => ({ taskTemplate: { LogDriver: { Name: 'json-file', Options: { 'max-size': '1m' } } } }) },
  {
    name: 'resources',
    covers: ['TaskTemplate.Resources.Limits', 'TaskTemplate.Resources.Reservation'],
    quote: ['Resources {Limits {NanoCPUs (units of 10^-9 CPU), MemoryBytes}, Reservation {NanoCPUs, MemoryBytes}}'],
    // the create body's "Reservation" and the inspect's "Reservations", both: each daemon takes the one it knows
    fields: () => ({ taskTemplate: { Resources: { Limits: LIMITS, Reservation: RESERVATION, Reservations: RESERVATION } } }),
    shows: () => ({ taskTemplate: { Resources: { Limits: LIMITS, Reservations: RESERVATION } } }),
  },
  {
    name: 'restart-policy',
    covers: ['TaskTemplate.RestartPolicy.Condition'],
    quote: ['RestartPolicy {Condition (none, on-failure, any), Delay, Attempts (default 0, ignored), Window (default 0, unbounded)}'],
    fields: () => ({ taskTemplate: { RestartPolicy: { Condition: 'on-failure' } } }),
  },
  {
    name: 'restart-policy-timing',
    docker: true,
    covers: ['TaskTemplate.RestartPolicy.Delay', 'TaskTemplate.RestartPolicy.Attempts', 'TaskTemplate.RestartPolicy.Window'],
    quote: ['RestartPolicy {Condition (none, on-failure, any), Delay, Attempts (default 0, ignored), Window (default 0, unbounded)}', 'RestartPolicy also shows MaxAttempts in the sample'],
    fields: () => ({ taskTemplate: { RestartPolicy: { Condition: 'on-failure', Delay: 2 * SECOND_NS, MaxAttempts: 3, Window: 60 * SECOND_NS } } }),
  },
  { name: 'placement', covers: ['TaskTemplate.Placement'], quote: ['Placement (array of constraints)'], fields: () => ({ taskTemplate: { Placement: ['node.role==manager'] } }) },
  { name: 'placement-constraints', docker: true, covers: ['TaskTemplate.Placement'], quote: ['Placement (array of constraints)'], fields: () => ({ taskTemplate: { Placement: { Constraints: ['node.role==manager'] } } }) },
  {
    name: 'update-config',
    covers: ['UpdateConfig.Parallelism', 'UpdateConfig.FailureAction'],
    quote: ['UpdateConfig {Parallelism (0 means unlimited), Delay, FailureAction (continue or pause)}'],
    fields: () => ({ spec: { UpdateConfig: { Parallelism: 2, FailureAction: 'pause' } } }),
    shows: () => ({ spec: { UpdateConfig: { Parallelism: 2 } } }),
  },
  {
    name: 'update-config-delay',
    docker: true,
    covers: ['UpdateConfig.Parallelism', 'UpdateConfig.Delay', 'UpdateConfig.FailureAction'],
    quote: ['UpdateConfig {Parallelism (0 means unlimited), Delay, FailureAction (continue or pause)}'],
    fields: () => ({ spec: { UpdateConfig: { Parallelism: 2, Delay: SECOND_NS, FailureAction: 'pause' } } }),
  },
  { name: 'networks', docker: true, covers: ['Networks'], quote: ['Networks (array of network names or ids)'], fields: async (context) => ({ spec: { Networks: [{ Target: await ownNetwork(context, { Driver: 'overlay' }) }] } }) },
  {
    name: 'endpoint-mode',
    covers: ['EndpointSpec.Mode'],
    quote: [ENDPOINT_QUOTE],
    // the create body's Endpoint.Spec and the inspect's EndpointSpec, both
    fields: () => ({ spec: { Endpoint: { Spec: { Mode: 'dnsrr' } }, EndpointSpec: { Mode: 'dnsrr' } } }),
    shows: () => ({ spec: { EndpointSpec: { Mode: 'dnsrr' } } }),
  },
  {
    name: 'endpoint-ports',
    covers: ['EndpointSpec.Mode', 'EndpointSpec.Ports'],
    quote: [ENDPOINT_QUOTE, 'Endpoint {Spec, ExposedPorts (array of {Protocol, Port, PublicPort}), VirtualIPs (array of {NetworkID, Addr})}'],
    fields: () => ({ spec: { Endpoint: { Spec: { Mode: 'vip', Ports: ['8080/tcp'] } }, EndpointSpec: { Mode: 'vip' } } }),
    // the port given, as the inspect shows exposed ports: in Spec.EndpointSpec or in Endpoint; spec/2 §2.7 gives Port no type (number or numeric string)
    judge: ({ expect }, service) => {
      const spec = service.Spec as { EndpointSpec?: { ExposedPorts?: unknown } };
      const shown = [spec.EndpointSpec?.ExposedPorts, (service.Endpoint as { ExposedPorts?: unknown } | undefined)?.ExposedPorts].flatMap((ports) => (Array.isArray(ports) ? (ports as Record<string, unknown>[]) : []));
      expect(shown.some((port) => Number(port.Port) === 8080 && String(port.Protocol).toLowerCase() === 'tcp'), `the exposed ports shown (Spec.EndpointSpec.ExposedPorts, Endpoint.ExposedPorts): ${JSON.stringify(shown)}`).toBe(true);
    },
  },
  { name: 'endpoint-ports-target', docker: true, covers: ['EndpointSpec.Mode', 'EndpointSpec.Ports'], quote: [ENDPOINT_QUOTE], fields: () => ({ spec: { EndpointSpec: { Mode: 'vip', Ports: [{ Protocol: 'tcp', TargetPort: 8080 }] } } }) },
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

/** The inspected Spec's parts where the case's fields belong; `template`: the inspected task template. */
function inspectedParts(spec: Record<string, unknown>, template: Record<string, unknown>, fields: SpecFields): SpecFields {
  const pick = (from: Record<string, unknown>, given: Record<string, unknown> | undefined) => given && Object.fromEntries(Object.keys(given).map((key) => [key, from[key]]));
  return {
    ...(fields.spec && { spec: pick(spec, fields.spec) }),
    ...(fields.taskTemplate && { taskTemplate: pick(template, fields.taskTemplate) }),
    ...(fields.containerSpec && { containerSpec: pick((template.ContainerSpec ?? {}) as Record<string, unknown>, fields.containerSpec) }),
  };
}

/** The inspect's Spec, whose place and fields every case is read back from. */
const INSPECT_QUOTE = 'Inspect response: ID, Version {Index (integer)}, CreatedAt, UpdatedAt (timestamps), Spec {Name, Task {ContainerSpec {Image}, Resources {Limits, Reservations}, RestartPolicy {Condition}, Placement}, Mode {Replicated {Replicas (integer)}}, UpdateConfig {Parallelism}, EndpointSpec {Mode, Ingress, ExposedPorts (array of {Protocol, Port})}}';

for (const { name, covers, quote, docker, fields, shows, judge } of CASES) {
  check(`swarm.services.field-${name}`, {
    title: docker ? `a service created with ${covers.join(', ')} inspects with what it was given there, at Spec.TaskTemplate` : `a service created with ${covers.join(', ')} inspects with it, as the inspect response lists it`,
    spec: '2 §2.7',
    quote: [...quote, INSPECT_QUOTE],
    ...(docker && { level: 'docker' as const, seen: 'dockerd 20.10.24' }),
    since: '1.24',
    tags: ['state'],
    requires: ['swarm'],
    covers: covers.map((field) => `2:POST /services/create:body:${field}`),
  }, async (context) => {
    const given = await fields(context);
    const body = specWith(context, given);
    if (docker) {
      const id = await context.make.service(body);
      const service = await inspectService(context, id);
      const spec = service.Spec as unknown as Record<string, unknown>;
      context.expect(inspectedParts(spec, (spec.TaskTemplate ?? {}) as Record<string, unknown>, given), `the inspected Spec of service ${id} where the fields were given`).toMatchObject(given);
      return;
    }
    // the create's answer is "not shown" (spec/2 §4.6): the service is found by its name
    await createService(context, body);
    const service = await inspectService(context, body.Name as string);
    if (judge) return judge(context, service as unknown as Record<string, unknown>);
    const spec = service.Spec as unknown as Record<string, unknown>;
    const expected = shows ? shows(given) : given;
    context.expect(inspectedParts(spec, templateOf(spec) ?? {}, expected), `the inspected Spec of service ${body.Name as string} where the fields were given`).toMatchObject(expected);
  });
}
