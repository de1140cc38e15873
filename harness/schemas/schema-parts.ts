/**
 * Pieces the schema modules share: the JSON types they spell again and again, one schema object per
 * version (the validator compiles each schema object once), and the {Id, Warnings} answer that both
 * container create and exec create give.
 */
export const string = { type: 'string' } as const;
export const integer = { type: 'integer' } as const;
export const boolean = { type: 'boolean' } as const;
export const timestamp = { type: 'string', format: 'date-time' } as const;
export const nullableStringList = { type: ['array', 'null'], items: string } as const;

/** Builds a version's schema on first use and hands out that same object afterwards. */
export function perVersion<T extends object>(build: (version: string) => T): (version: string) => T {
  const built = new Map<string, T>();
  return (version) => {
    let schema = built.get(version);
    if (!schema) {
      schema = build(version);
      built.set(version, schema);
    }
    return schema;
  };
}

/** 201 {Id, Warnings} of POST /containers/create (spec/1 §2.3) and POST /containers/{id}/exec (§2.5). */
export const CREATED_SCHEMA = {
  type: 'object',
  required: ['Id', 'Warnings'],
  properties: {
    Id: { type: 'string', minLength: 1 },
    Warnings: { type: 'array', items: string },
  },
} as const;
