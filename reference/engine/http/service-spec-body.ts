/**
 * The service spec of a create or update body (spec/2 §2.7) as the model's ServiceSpec: decoded as
 * dockerd decodes it (body-structs.ts), dockerd's defaults (one replica), and the parts the reference
 * only stores passed through. A body without a TaskTemplate.ContainerSpec is dockerd's "mismatched
 * Runtime and *Spec fields".
 */
import { InvalidParameterError } from '../model/common/errors.ts';
import { checkReplicas } from '../model/swarm/service-replicas.ts';
import { RESTART_CONDITIONS, type RestartCondition, type ServiceContainerSpec, type ServiceMode, type ServiceRestartPolicy, type ServiceSpec, type TaskSpec } from '../model/swarm/service-spec.ts';
import { SERVICE_SPEC } from './body-structs.ts';
import { decodeGo } from './json-fields.ts';

type Decoded = Record<string, unknown>;
interface DecodedSpec extends Decoded {
  Name?: string;
  Labels?: Record<string, string>;
  TaskTemplate?: Decoded & { ContainerSpec?: Partial<ServiceContainerSpec>; RestartPolicy?: Omit<ServiceRestartPolicy, 'Condition'> & { Condition?: string } };
  Mode?: { Replicated?: { Replicas?: number }; Global?: object };
}

export function parseServiceSpec(body: unknown): ServiceSpec {
  const fields = decodeGo<DecodedSpec>(body ?? {}, SERVICE_SPEC);
  const template = fields.TaskTemplate;
  const containerSpec = template?.ContainerSpec;
  if (!template || !containerSpec) throw new InvalidParameterError('mismatched Runtime and *Spec fields');
  return {
    Name: fields.Name ?? '',
    Labels: fields.Labels ?? {},
    TaskTemplate: parseTaskSpec(template, containerSpec),
    Mode: parseMode(fields.Mode),
    ...given(fields, ['UpdateConfig', 'Networks']),
    ...endpointSpec(fields.EndpointSpec, body),
  };
}

/**
 * The endpoint: dockerd's EndpointSpec as given, and the spec's own form of it (spec/2 §2.7's create
 * body: "Endpoint {Spec {Mode (vip or dnsrr), Ports (exposed ports, form `<port>/<tcp or udp>`)}}"),
 * whose ports the inspect shows as "ExposedPorts (array of {Protocol, Port})". dockerd ignores the
 * create body's Endpoint.
 */
function endpointSpec(docker: unknown, body: unknown): { EndpointSpec?: Record<string, unknown> } {
  const spec = (body as { Endpoint?: { Spec?: { Mode?: unknown; Ports?: unknown } } } | null)?.Endpoint?.Spec;
  const ports = Array.isArray(spec?.Ports) ? spec.Ports.filter((port): port is string => typeof port === 'string' && /^\d+\/(tcp|udp)$/i.test(port)) : [];
  const given = (docker ?? undefined) as Record<string, unknown> | undefined;
  if (ports.length === 0 && typeof spec?.Mode !== 'string') return given ? { EndpointSpec: given } : {};
  return {
    EndpointSpec: {
      ...(typeof spec?.Mode === 'string' && { Mode: spec.Mode }),
      ...given,
      ...(ports.length > 0 && { ExposedPorts: ports.map((port) => ({ Protocol: port.split('/')[1]?.toLowerCase(), Port: Number(port.split('/')[0]) })) }),
    },
  };
}

/** What the reference keeps of a ContainerSpec besides its image (the secrets are checked against the swarm's). */
const CONTAINER_SPEC_KEPT = ['Command', 'Args', 'Env', 'Dir', 'User', 'Labels', 'StopGracePeriod', 'Mounts', 'Hostname', 'Groups', 'TTY', 'Healthcheck', 'Hosts', 'DNSConfig', 'Secrets'];

function parseTaskSpec(template: NonNullable<DecodedSpec['TaskTemplate']>, containerSpec: Partial<ServiceContainerSpec>): TaskSpec {
  return {
    ContainerSpec: { ...given(containerSpec, CONTAINER_SPEC_KEPT), Image: containerSpec.Image ?? '' },
    ...(template.RestartPolicy && { RestartPolicy: parseRestartPolicy(template.RestartPolicy) }),
    ...given(template, ['Resources', 'Placement', 'LogDriver', 'Networks', 'ForceUpdate']),
  };
}

function parseRestartPolicy(policy: NonNullable<NonNullable<DecodedSpec['TaskTemplate']>['RestartPolicy']>): ServiceRestartPolicy {
  const condition = policy.Condition;
  if (condition && !RESTART_CONDITIONS.includes(condition as RestartCondition)) throw new InvalidParameterError(`invalid RestartCondition: ${JSON.stringify(condition)}`);
  return {
    ...(condition && { Condition: condition as RestartCondition }),
    ...(policy.Delay !== undefined && { Delay: policy.Delay }),
    // dockerd always shows MaxAttempts, 0 when not given.
    MaxAttempts: policy.MaxAttempts ?? 0,
    ...(policy.Window !== undefined && { Window: policy.Window }),
  };
}

/** Replicated with one replica unless the body says otherwise. */
function parseMode(mode: DecodedSpec['Mode']): ServiceMode {
  if (mode?.Global !== undefined) return { Global: {} };
  return { Replicated: { Replicas: checkReplicas(mode?.Replicated?.Replicas ?? 1) } };
}

/** The fields of `names` the body gives (dockerd leaves out what was not given: omitempty). */
function given(fields: object, names: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([name, value]) => names.includes(name) && value !== undefined));
}
