/**
 * The event of GET /events per API version (spec/2 §2.9): Type, Action, Actor {ID, Attributes} and
 * time in Unix seconds; timeNano required from 1.21 and merely allowed before (open, like every
 * schema here). Container events also carry the legacy status, id and from.
 */
import { atLeast } from '../../protocol/versions.ts';
import { integer, perVersion, string } from './schema-parts.ts';

const EVENT_TYPES = ['container', 'image', 'volume', 'network', 'daemon', 'plugin', 'service', 'node', 'secret', 'config'];

export const eventSchema = perVersion((version: string) => ({
  type: 'object',
  required: ['Type', 'Action', 'Actor', 'time', ...(atLeast(version, '1.21') ? ['timeNano'] : [])],
  properties: {
    status: string,
    id: string,
    from: string,
    Type: { enum: EVENT_TYPES },
    Action: { type: 'string', minLength: 1 },
    Actor: {
      type: 'object',
      required: ['ID', 'Attributes'],
      properties: { ID: { type: 'string', minLength: 1 }, Attributes: { type: 'object', additionalProperties: string } },
    },
    time: { type: 'integer', minimum: 0 },
    timeNano: { ...integer, minimum: 0 },
  },
  if: { properties: { Type: { const: 'container' } } },
  then: { required: ['status', 'id', 'from'] },
}));
