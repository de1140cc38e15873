/**
 * The bodies and queries of the swarm's own endpoints (Docker's; the spec leaves them "not shown"),
 * decoded as dockerd decodes them into moby's swarm structs at 20.10: init, join, update, a node's
 * spec, a secret's or a config's spec, and the `version` query a write names.
 */
import { InvalidParameterError } from '../model/common/errors.ts';
import type { SwarmDataKind, SwarmDataSpec } from '../model/swarm/swarm-data-store.ts';
import { NODE_AVAILABILITIES, NODE_ROLES, type InitRequest, type JoinRequest, type NodeAvailability, type NodeRole, type NodeSpec, type SwarmSpecRequest } from '../model/swarm/swarm-cluster.ts';
import { decodeGo, goAny, goBool, goInt, goInt64, goString, goStringList, goStringMap, goStruct, goUint64, sliceOf, type GoType } from './json-fields.ts';

const GO_DURATION: GoType = { ...goInt64, name: 'time.Duration' } as GoType;

/** []byte: standard base64 with padding, refused with Go's words. */
const goBytes: GoType = {
  kind: 'custom',
  name: '[]uint8',
  decode: (value) => (typeof value === 'string' ? decodeBase64(value) : undefined),
};

const DRIVER = goStruct('*swarm.Driver', { Name: goString, Options: goStringMap });

const SWARM_SPEC = goStruct('swarm.Spec', {
  Name: goString,
  Labels: goStringMap,
  Orchestration: goStruct('swarm.OrchestrationConfig', { TaskHistoryRetentionLimit: goInt64 }),
  Raft: goStruct('swarm.RaftConfig', { SnapshotInterval: goUint64, KeepOldSnapshots: goUint64, LogEntriesForSlowFollowers: goUint64, ElectionTick: goInt, HeartbeatTick: goInt }),
  Dispatcher: goStruct('swarm.DispatcherConfig', { HeartbeatPeriod: GO_DURATION }),
  CAConfig: goStruct('swarm.CAConfig', { NodeCertExpiry: GO_DURATION, ExternalCAs: sliceOf(goAny) }),
  TaskDefaults: goStruct('swarm.TaskDefaults', { LogDriver: DRIVER }),
  EncryptionConfig: goStruct('swarm.EncryptionConfig', { AutoLockManagers: goBool }),
});

const INIT_REQUEST = goStruct('swarm.InitRequest', {
  ListenAddr: goString,
  AdvertiseAddr: goString,
  ForceNewCluster: goBool,
  Spec: SWARM_SPEC,
  AutoLockManagers: goBool,
  Availability: goString,
});

const JOIN_REQUEST = goStruct('swarm.JoinRequest', { ListenAddr: goString, AdvertiseAddr: goString, RemoteAddrs: goStringList, JoinToken: goString, Availability: goString });

const NODE_SPEC = goStruct('swarm.NodeSpec', { Name: goString, Labels: goStringMap, Role: goString, Availability: goString });

const DATA_SPECS: Record<SwarmDataKind, GoType> = {
  secret: goStruct('swarm.SecretSpec', { Name: goString, Labels: goStringMap, Data: goBytes, Driver: DRIVER }),
  config: goStruct('swarm.ConfigSpec', { Name: goString, Labels: goStringMap, Data: goBytes, Templating: DRIVER }),
};

export function parseInitRequest(body: unknown): InitRequest {
  const fields = decodeGo<{ ListenAddr?: string; AdvertiseAddr?: string; Spec?: SwarmSpecRequest; AutoLockManagers?: boolean }>(body, INIT_REQUEST);
  const spec = fields.Spec ?? {};
  // dockerd's init request carries the lock setting beside the spec as well as in it.
  const autoLock = fields.AutoLockManagers === true || spec.EncryptionConfig?.AutoLockManagers === true;
  return { listenAddr: fields.ListenAddr ?? '', advertiseAddr: fields.AdvertiseAddr ?? '', spec: { ...spec, EncryptionConfig: { AutoLockManagers: autoLock } } };
}

export function parseJoinRequest(body: unknown): JoinRequest {
  const fields = decodeGo<{ ListenAddr?: string; RemoteAddrs?: string[]; JoinToken?: string }>(body, JOIN_REQUEST);
  return { listenAddr: fields.ListenAddr ?? '', remoteAddrs: fields.RemoteAddrs ?? [], joinToken: fields.JoinToken ?? '' };
}

export function parseSwarmSpec(body: unknown): SwarmSpecRequest {
  return decodeGo<SwarmSpecRequest>(body, SWARM_SPEC);
}

/** A role and an availability from dockerd's lists, worded as its refusals. */
export function parseNodeSpec(body: unknown): NodeSpec {
  const fields = decodeGo<{ Name?: string; Labels?: Record<string, string>; Role?: string; Availability?: string }>(body, NODE_SPEC);
  const role = (fields.Role ?? '').toLowerCase();
  if (!NODE_ROLES.includes(role as NodeRole)) throw new InvalidParameterError(`invalid Role: ${JSON.stringify(fields.Role ?? '')}`);
  const availability = (fields.Availability ?? '').toLowerCase();
  if (!NODE_AVAILABILITIES.includes(availability as NodeAvailability)) throw new InvalidParameterError(`invalid Availability: ${JSON.stringify(fields.Availability ?? '')}`);
  return { Name: fields.Name ?? '', Labels: fields.Labels ?? {}, Role: role as NodeRole, Availability: availability as NodeAvailability };
}

/** A secret's or a config's spec, as swarm.SecretSpec or swarm.ConfigSpec. */
export function parseSwarmDataSpec(kind: SwarmDataKind, body: unknown): SwarmDataSpec {
  const fields = decodeGo<{ Name?: string; Labels?: Record<string, string>; Data?: Buffer }>(body, DATA_SPECS[kind]);
  return { Name: fields.Name ?? '', Labels: fields.Labels ?? {}, ...(fields.Data !== undefined && { Data: fields.Data }) };
}

/** The required `version` of a write to a swarm object, an unsigned integer, worded as dockerd words each kind's refusal. */
export function parseObjectVersion(kind: 'swarm' | 'node' | 'service', text: string | null): number {
  const given = text ?? '';
  if (!/^\d+$/.test(given)) throw new InvalidParameterError(`invalid ${kind} version '${given}': strconv.ParseUint: parsing ${JSON.stringify(given)}: invalid syntax`);
  return Number(given);
}

/** A secret's or a config's `version`: dockerd's refusal there names no value. */
export function parseSwarmDataVersion(kind: SwarmDataKind, text: string | null): number {
  if (text === null || !/^\d+$/.test(text)) throw new InvalidParameterError(`invalid ${kind} version`);
  return Number(text);
}

/** Go's base64.StdEncoding: padded, no other characters; the first bad byte named as Go names it. */
function decodeBase64(text: string): Buffer {
  const bad = /[^A-Za-z0-9+/=]/.exec(text);
  if (bad) throw new InvalidParameterError(`illegal base64 data at input byte ${bad.index}`);
  const padding = text.indexOf('=');
  const misplaced = padding >= 0 && (text.length % 4 !== 0 || !/^={1,2}$/.test(text.slice(padding)));
  if (misplaced || text.length % 4 !== 0) throw new InvalidParameterError(`illegal base64 data at input byte ${misplaced ? padding : text.length - (text.length % 4)}`);
  return Buffer.from(text, 'base64');
}
