/**
 * Type checks of JSON request fields, each failure a 400 worded like dockerd's JSON decoder, so that
 * the model only ever receives values of the types it declares.
 */
import { InvalidParameterError } from '../model/errors.ts';

export type FieldCheck<T> = (value: unknown) => value is T;

/** undefined and null pass through (absent); anything else must pass `is`. */
export function optional<T>(value: unknown, field: string, is: FieldCheck<T>): T | null | undefined {
  if (value === undefined || value === null) return value;
  if (!is(value)) throw new InvalidParameterError(`json: cannot unmarshal ${jsonKind(value)} into the ${field} field`);
  return value;
}

export function asObject(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidParameterError(`json: cannot unmarshal ${jsonKind(value)} into the ${field} object`);
  }
  return value as Record<string, unknown>;
}

export function isString(value: unknown): value is string {
  return typeof value === 'string';
}

export function isBoolean(value: unknown): value is boolean {
  return typeof value === 'boolean';
}

/** Go's integer fields take whole numbers only. */
export function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

export function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every(isString);
}

export function isStringMap(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isString);
}

export function isPlainObject(value: unknown): value is Record<string, object> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'number' && !Number.isInteger(value)) return `number ${value}`;
  return typeof value === 'object' ? 'object' : typeof value;
}
