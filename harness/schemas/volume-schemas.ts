/**
 * Schemas of the volume resources (spec/2 §2.3, §4.3) per API version. Open, like every schema
 * here: Scope is required from 1.25 and merely allowed before (a newer daemon may add it at any
 * version, spec/1 §1). Labels "appear from 1.25" too, but spec/2 §2.3 lets empty fields be omitted,
 * so they are allowed and never required (a volume made with labels is checked for them by its own
 * check). Status is the driver's, and empty labels may come as null (Go's nil map), as the image
 * schemas allow.
 */
import { atLeast } from '../../protocol/versions.ts';
import { perVersion, string } from './schema-parts.ts';

export const volumeSchema = perVersion((version: string) => ({
  type: 'object',
  required: ['Name', 'Driver', 'Mountpoint', ...(atLeast(version, '1.25') ? ['Scope'] : [])],
  properties: {
    Name: { type: 'string', minLength: 1 },
    Driver: { type: 'string', minLength: 1 },
    Mountpoint: string,
    Status: { type: 'object' },
    Labels: { type: ['object', 'null'], additionalProperties: string },
    Scope: { enum: ['global', 'local'] },
  },
}));

/** GET /volumes: {Volumes, Warnings}; an empty list of warnings may come as null. */
export const volumeListSchema = perVersion((version: string) => ({
  type: 'object',
  required: ['Volumes', 'Warnings'],
  properties: {
    Volumes: { type: 'array', items: volumeSchema(version) },
    Warnings: { type: ['array', 'null'], items: string },
  },
}));
