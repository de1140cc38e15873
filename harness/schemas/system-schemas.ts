/**
 * Schemas of GET /version and GET /info (spec/2 §2.5). Open: extra properties are allowed. The one
 * version rule of these fields (booleans from 1.19) is a check of its own. The vendor-named root-directory field comes from the dialect.
 */
import type { Dialect } from '../../protocol/dialect.ts';
import { integer, nullableStringList, string, timestamp } from './schema-parts.ts';

const stringList = { type: 'array', items: string } as const;

export const VERSION_SCHEMA = {
  type: 'object',
  required: ['Version', 'Os', 'KernelVersion', 'GoVersion', 'GitCommit', 'Arch', 'ApiVersion', 'BuildTime', 'Experimental'],
  properties: {
    Version: string,
    Os: string,
    KernelVersion: string,
    GoVersion: string,
    GitCommit: string,
    Arch: string,
    ApiVersion: { type: 'string', pattern: '^\\d+\\.\\d+$' },
    BuildTime: timestamp,
    Experimental: { type: 'boolean' },
  },
} as const;

/** The info fields spec/2 §2.5 calls booleans; before 1.19 they were not JSON booleans. */
export const INFO_BOOLEAN_FIELDS = [
  'CpuCfsPeriod', 'CpuCfsQuota', 'Debug', 'ExperimentalBuild', 'IPv4Forwarding', 'KernelMemory',
  'MemoryLimit', 'OomKillDisable', 'SwapLimit',
] as const;

const INFO_STRING_FIELDS = [
  'Architecture', 'ClusterStore', 'Driver', 'HttpProxy', 'HttpsProxy', 'ID', 'IndexServerAddress', 'InitPath',
  'InitSha1', 'KernelVersion', 'Name', 'NoProxy', 'OSType', 'OperatingSystem', 'ServerVersion',
] as const;

const INFO_INTEGER_FIELDS = [
  'Containers', 'ContainersRunning', 'ContainersStopped', 'ContainersPaused', 'Images', 'MemTotal', 'NCPU',
  'NEventsListener', 'NFd', 'NGoroutines',
] as const;

export function infoSchema(dialect: Dialect) {
  // The type rule of the booleans is its own check (system.info.booleans); the schema only says "0/1 or boolean".
  const flag = { anyOf: [{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }] };
  const properties: Record<string, object> = {
    ...Object.fromEntries(INFO_STRING_FIELDS.map((name) => [name, string])),
    ...Object.fromEntries(INFO_INTEGER_FIELDS.map((name) => [name, integer])),
    ...Object.fromEntries(INFO_BOOLEAN_FIELDS.map((name) => [name, flag])),
    [dialect.rootDirInfoField]: string,
    CgroupDriver: { enum: ['cgroupfs', 'systemd'] },
    DriverStatus: { type: ['array', 'null'], items: stringList },
    Labels: nullableStringList,
    Plugins: {
      type: 'object',
      required: ['Volume', 'Network'],
      properties: { Volume: nullableStringList, Network: nullableStringList },
    },
    RegistryConfig: {
      type: 'object',
      required: ['IndexConfigs', 'InsecureRegistryCIDRs'],
      properties: {
        IndexConfigs: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            required: ['Mirrors', 'Name', 'Official', 'Secure'],
            properties: { Mirrors: nullableStringList, Name: string, Official: { type: 'boolean' }, Secure: { type: 'boolean' } },
          },
        },
        InsecureRegistryCIDRs: nullableStringList,
      },
    },
    SecurityOptions: nullableStringList,
    SystemStatus: { type: ['array', 'null'], items: stringList },
    SystemTime: timestamp,
  };
  return {
    type: 'object',
    required: Object.keys(properties),
    properties,
  };
}
