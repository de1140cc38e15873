/** An RFC 6749 §5.2 error of the token endpoint: its code, a description for people, and its status. */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope';

export class OAuthError extends Error {
  override name = 'OAuthError';

  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    /** 401 for failed client authentication (invalid_client), 400 for the rest */
    readonly status: 400 | 401 = code === 'invalid_client' ? 401 : 400,
  ) {
    super(`${code}: ${description}`);
  }
}
