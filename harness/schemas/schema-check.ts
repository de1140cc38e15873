/**
 * Validates a response body against an open JSON Schema (unknown extra properties allowed: a newer
 * daemon may add fields at any version) and fails the check with every mismatch listed.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { AnySchema, ValidateFunction } from 'ajv';
import { NonConformingResponse } from '../client/api-response.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
const compiled = new WeakMap<object, ValidateFunction>();

export function assertMatchesSchema(value: unknown, schema: AnySchema & object, what: string): void {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(value)) return;
  const mismatches = (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`);
  throw new NonConformingResponse(`${what} does not match its schema: ${[...new Set(mismatches)].join('; ')}`);
}
