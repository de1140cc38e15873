/**
 * The service spec of a create or update body (spec/2 §2.7) as the model's ServiceSpec: typed fields
 * checked like dockerd's decoder, dockerd's defaults (one replica), and the parts the reference only
 * stores passed through. A body without a TaskTemplate.ContainerSpec is dockerd's "mismatched
 * Runtime and *Spec fields".
 */
import { InvalidParameterError } from '../model/errors.ts';
import { checkReplicas } from '../model/service-replicas.ts';
import { RESTART_CONDITIONS, type RestartCondition, type ServiceContainerSpec, type ServiceMode, type ServiceRestartPolicy, type ServiceSpec, type TaskSpec } from '../model/service-spec.ts';
import { asObject, isInteger, isPlainObject, isString, isStringList, isStringMap, optional } from './json-fields.ts';

export function parseServiceSpec(body: unknown): ServiceSpec {
  const fields = asObject(body ?? {}, 'ServiceSpec');
  const template = optional(fields.TaskTemplate, 'TaskTemplate', isPlainObject);
  const containerSpec = optional(template?.ContainerSpec, 'TaskTemplate.ContainerSpec', isPlainObject);
  if (!template || !containerSpec) throw new InvalidParameterError('mismatched Runtime and *Spec fields');
  return {
    Name: optional(fields.Name, 'Name', isString) ?? '',
    Labels: optional(fields.Labels, 'Labels', isStringMap) ?? {},
    TaskTemplate: parseTaskSpec(template, containerSpec),
    Mode: parseMode(optional(fields.Mode, 'Mode', isPlainObject)),
    ...opaque(fields, ['UpdateConfig', 'Networks', 'EndpointSpec']),
  };
}

function parseTaskSpec(template: Record<string, unknown>, containerSpec: Record<string, unknown>): TaskSpec {
  const restartPolicy = optional(template.RestartPolicy, 'TaskTemplate.RestartPolicy', isPlainObject);
  return {
    ContainerSpec: parseContainerSpec(containerSpec),
    ...(restartPolicy && { RestartPolicy: parseRestartPolicy(restartPolicy) }),
    ...opaque(template, ['Resources', 'Placement', 'LogDriver']),
  };
}

function parseContainerSpec(spec: Record<string, unknown>): ServiceContainerSpec {
  const field = (name: string) => `TaskTemplate.ContainerSpec.${name}`;
  const given = {
    Command: optional(spec.Command, field('Command'), isStringList),
    Args: optional(spec.Args, field('Args'), isStringList),
    Env: optional(spec.Env, field('Env'), isStringList),
    Dir: optional(spec.Dir, field('Dir'), isString),
    User: optional(spec.User, field('User'), isString),
    Labels: optional(spec.Labels, field('Labels'), isStringMap),
    StopGracePeriod: optional(spec.StopGracePeriod, field('StopGracePeriod'), isInteger),
    Mounts: optional(spec.Mounts, field('Mounts'), Array.isArray),
  };
  // dockerd leaves out what was not given (omitempty).
  const present = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined && value !== null));
  return { Image: optional(spec.Image, field('Image'), isString) ?? '', ...present };
}

function parseRestartPolicy(policy: Record<string, unknown>): ServiceRestartPolicy {
  const condition = optional(policy.Condition, 'TaskTemplate.RestartPolicy.Condition', isString);
  if (condition && !RESTART_CONDITIONS.includes(condition as RestartCondition)) throw new InvalidParameterError(`invalid RestartCondition: ${JSON.stringify(condition)}`);
  const delay = optional(policy.Delay, 'TaskTemplate.RestartPolicy.Delay', isInteger);
  const window = optional(policy.Window, 'TaskTemplate.RestartPolicy.Window', isInteger);
  return {
    ...(condition && { Condition: condition as RestartCondition }),
    ...(delay != null && { Delay: delay }),
    // dockerd always shows MaxAttempts, 0 when not given.
    MaxAttempts: optional(policy.MaxAttempts, 'TaskTemplate.RestartPolicy.MaxAttempts', isInteger) ?? 0,
    ...(window != null && { Window: window }),
  };
}

/** Replicated with one replica unless the body says otherwise. */
function parseMode(mode: Record<string, unknown> | null | undefined): ServiceMode {
  if (mode?.Global !== undefined && mode.Global !== null) return { Global: {} };
  const replicated = optional(mode?.Replicated, 'Mode.Replicated', isPlainObject);
  const replicas = optional(replicated?.Replicas, 'Mode.Replicated.Replicas', isInteger) ?? 1;
  if (replicas < 0) throw new InvalidParameterError(`json: cannot unmarshal number ${replicas} into Go struct field ReplicatedService.Mode.Replicated.Replicas of type uint64`);
  return { Replicated: { Replicas: checkReplicas(replicas) } };
}

/** Parts the reference keeps as given, when given. */
function opaque(fields: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => fields[name] !== undefined && fields[name] !== null).map((name) => [name, fields[name]]));
}
