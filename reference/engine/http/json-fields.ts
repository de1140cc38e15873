/**
 * JSON request bodies decoded the way dockerd's Go decoder (encoding/json) decodes them into its
 * structs, from one table per struct (body-structs.ts): field names matched exactly or else without
 * regard to case, unknown fields dropped, `null` leaving a field unset, and a value of the wrong JSON
 * type or an integer out of its Go type's range refused with Go's own words (a 400, spec/1 §7.2 "bad
 * parameter"), e.g. `json: cannot unmarshal string into Go struct field HostConfig.HostConfig.Privileged
 * of type bool`. What comes out has the declared names and types, so the model only ever receives
 * values of the types it declares.
 */
import { EngineError, InvalidParameterError } from '../model/common/errors.ts';

export type GoType =
  | { kind: 'bool' | 'string' | 'float64' | 'any' }
  | { kind: 'integer'; name: string; min: number; max: number }
  /** `name` for a named slice or map type (types.PluginPrivileges, nat.PortMap) */
  | { kind: 'slice'; of: GoType; name?: string }
  | { kind: 'map'; of: GoType; name?: string }
  | { kind: 'struct'; name: string; qualified: string; declared: string; fields: Readonly<Record<string, GoField>> }
  /** a type with its own UnmarshalJSON: `decode` gives the value or undefined when it does not decode, which is reported as into `name` */
  | { kind: 'custom'; name: string; decode: (value: unknown) => unknown };

/**
 * A struct field: its type; for fields the spec adds at a version, that version (older requests do
 * not have them); for dockerd's own fields, which the spec does not define, `docker`.
 */
export interface GoField {
  type: GoType;
  since?: string;
  docker?: true;
}

/** A field of dockerd's that the spec does not define. */
export const dockerField = (type: GoType): GoField => ({ type, docker: true });

export const goBool: GoType = { kind: 'bool' };
export const goString: GoType = { kind: 'string' };
export const goFloat64: GoType = { kind: 'float64' };
/** interface{} and json.RawMessage: anything, kept as given */
export const goAny: GoType = { kind: 'any' };

/** Whole numbers in range; the largest doubles below 2^63 and 2^64 stand for the top of int64 and uint64 (a literal between is refused). */
const TWO_63 = 2 ** 63;
export const goInt64: GoType = { kind: 'integer', name: 'int64', min: -TWO_63, max: TWO_63 - 1024 };
export const goInt: GoType = { ...goInt64, name: 'int' };
export const goInt32: GoType = { kind: 'integer', name: 'int32', min: -(2 ** 31), max: 2 ** 31 - 1 };
export const goUint16: GoType = { kind: 'integer', name: 'uint16', min: 0, max: 2 ** 16 - 1 };
export const goUint32: GoType = { kind: 'integer', name: 'uint32', min: 0, max: 2 ** 32 - 1 };
export const goUint64: GoType = { kind: 'integer', name: 'uint64', min: 0, max: 2 ** 64 - 2048 };
/** Go's uint is 64 bits wide on the platforms dockerd runs on. */
export const goUint: GoType = { ...goUint64, name: 'uint' };

export const sliceOf = (of: GoType, name?: string): GoType => ({ kind: 'slice', of, ...(name !== undefined && { name }) });
export const mapOf = (of: GoType, name?: string): GoType => ({ kind: 'map', of, ...(name !== undefined && { name }) });
export const goStringList = sliceOf(goString);
export const goStringMap = mapOf(goString);
/** `struct {}`: the value of a set such as Volumes and ExposedPorts */
export const goEmptyStruct: GoType = { kind: 'struct', name: '', qualified: 'struct {}', declared: 'struct {}', fields: {} };

/**
 * A struct table, named as moby declares the field's type (`*container.HostConfig`): Go's messages
 * name the type without the pointer (`container.HostConfig`), and the struct in a field path without
 * its package (`HostConfig`).
 */
export function goStruct(declared: string, fields: Record<string, GoType | GoField>): GoType {
  const qualified = declared.replace(/^\*/, '');
  const name = qualified.replace(/^[a-z0-9]*\./, '');
  const table = Object.fromEntries(Object.entries(fields).map(([field, type]) => [field, 'type' in type ? type : { type }]));
  return { kind: 'struct', name, qualified, declared, fields: table };
}

/** What a request decodes by: whether it has a field (by its version, and whether it is dockerd's own), and how names match. */
export interface DecodeOptions {
  knows?: (field: GoField) => boolean;
  /** only a key of exactly the field's name sets it (Go also takes any case) */
  exactNames?: boolean;
}

/**
 * `value` (a parsed body; undefined when there was none) decoded into `type`. A struct comes out as
 * an object holding the fields given (by their declared names); `null` anywhere is left unset (an
 * element of a list or map becomes its type's zero value, as in Go). A body of `null` decoded into a
 * struct is the struct with no field set, as Go leaves it.
 */
export function decodeGo<T = Record<string, unknown>>(value: unknown, type: GoType, options: DecodeOptions = {}): T {
  if (value === null && type.kind === 'struct') return {} as T;
  return decodeValue(value, type, { struct: '', path: [], knows: options.knows ?? (() => true), exactNames: options.exactNames ?? false }) as T;
}

/**
 * For an endpoint whose row of the spec lists no 400 (POST /commit, POST /auth): a body that does not
 * decode is refused with the same words as a 500, the row's error status and dockerd's there.
 */
export function refusedAsServerError<T>(decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof InvalidParameterError) throw new EngineError(error.message);
    throw error;
  }
}

interface Place {
  /** the innermost struct's name, and the field names from the top (Go's error context) */
  struct: string;
  path: string[];
  knows: (field: GoField) => boolean;
  exactNames: boolean;
}

function decodeValue(value: unknown, type: GoType, place: Place): unknown {
  if (value === null || value === undefined) return undefined;
  const refuse = (what: string = jsonKind(value)): never => {
    // outside any struct field (the body itself, or an element of a top-level map), Go names only the type
    const into = place.path.length === 0 ? `Go value of type ${typeName(type)}` : `Go struct field ${place.struct}.${place.path.join('.')} of type ${typeName(type)}`;
    throw new InvalidParameterError(`json: cannot unmarshal ${what} into ${into}`);
  };
  switch (type.kind) {
    case 'any':
      return value;
    case 'bool':
      return typeof value === 'boolean' ? value : refuse();
    case 'string':
      return typeof value === 'string' ? value : refuse();
    case 'float64':
      return typeof value === 'number' ? value : refuse();
    case 'integer':
      if (typeof value !== 'number') return refuse();
      return Number.isInteger(value) && value >= type.min && value <= type.max ? value : refuse(`number ${goNumberText(value)}`);
    case 'slice':
      return Array.isArray(value) ? value.map((item) => decodeValue(item, type.of, place) ?? zeroValue(type.of)) : refuse();
    case 'map':
      if (!isJsonObject(value)) return refuse();
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, decodeValue(item, type.of, place) ?? zeroValue(type.of)]));
    case 'struct':
      return isJsonObject(value) ? decodeStruct(value, type, place) : refuse();
    case 'custom': {
      const decoded = type.decode(value);
      return decoded === undefined ? refuse() : decoded;
    }
  }
}

function decodeStruct(value: Record<string, unknown>, type: Extract<GoType, { kind: 'struct' }>, place: Place): Record<string, unknown> {
  const names = Object.keys(type.fields);
  const decoded: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // Go prefers the field of that exact name, then any whose name matches without regard to case
    // (own names only: `constructor` or `__proto__` in a body is no field).
    const name = Object.hasOwn(type.fields, key) ? key : place.exactNames ? undefined : names.find((candidate) => candidate.toLowerCase() === key.toLowerCase());
    const field = name === undefined ? undefined : type.fields[name];
    if (name === undefined || !field || !place.knows(field)) continue;
    const result = decodeValue(item, field.type, { ...place, struct: type.name, path: [...place.path, name] });
    if (result === undefined) delete decoded[name];
    else decoded[name] = result;
  }
  return decoded;
}

function zeroValue(type: GoType): unknown {
  switch (type.kind) {
    case 'bool':
      return false;
    case 'string':
      return '';
    case 'integer':
    case 'float64':
      return 0;
    case 'struct':
      return {};
    default:
      return null;
  }
}

function typeName(type: GoType): string {
  switch (type.kind) {
    case 'integer':
    case 'custom':
      return type.name;
    // an element type keeps its pointer: []*units.Ulimit
    case 'slice':
      return type.name ?? `[]${elementName(type.of)}`;
    case 'map':
      return type.name ?? `map[string]${elementName(type.of)}`;
    case 'struct':
      return type.qualified;
    case 'any':
      return 'interface {}';
    default:
      return type.kind;
  }
}

function elementName(type: GoType): string {
  return type.kind === 'struct' ? type.declared : typeName(type);
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Go names JSON values by kind: string, number, bool, array, object. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** A number as Go quotes its literal: whole numbers in full, others with an unsigned exponent (1e308, not 1e+308). */
function goNumberText(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return BigInt(value).toString();
  return String(value).replace('e+', 'e');
}
