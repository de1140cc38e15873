/**
 * The errors of the distribution API (its `errcode` registry): each a code, a message, the HTTP status
 * it answers with, and an optional detail, answered as `{"errors": [{code, message, detail}]}`.
 */
export const REGISTRY_ERRORS = {
  UNAUTHORIZED: { status: 401, message: 'authentication required' },
  DENIED: { status: 403, message: 'requested access to the resource is denied' },
  NAME_INVALID: { status: 400, message: 'invalid repository name' },
  NAME_UNKNOWN: { status: 404, message: 'repository name not known to registry' },
  TAG_INVALID: { status: 400, message: 'manifest tag did not match URI' },
  BLOB_UNKNOWN: { status: 404, message: 'blob unknown to registry' },
  BLOB_UPLOAD_UNKNOWN: { status: 404, message: 'blob upload unknown to registry' },
  BLOB_UPLOAD_INVALID: { status: 400, message: 'blob upload invalid' },
  DIGEST_INVALID: { status: 400, message: 'provided digest did not match uploaded content' },
  MANIFEST_UNKNOWN: { status: 404, message: 'manifest unknown' },
  MANIFEST_INVALID: { status: 400, message: 'manifest invalid' },
  MANIFEST_BLOB_UNKNOWN: { status: 400, message: 'blob unknown to registry' },
  UNSUPPORTED: { status: 405, message: 'The operation is unsupported.' },
} as const;

export type RegistryErrorCode = keyof typeof REGISTRY_ERRORS;

export class RegistryError extends Error {
  override name = 'RegistryError';
  readonly status: number;

  constructor(
    readonly code: RegistryErrorCode,
    readonly detail: unknown = null,
  ) {
    super(REGISTRY_ERRORS[code].message);
    this.status = REGISTRY_ERRORS[code].status;
  }
}
