/**
 * What a request sent, kept beside its answer so that a failure can be reproduced from the report
 * (`curl …`): its headers and body, with credentials masked. A report is an artifact people upload
 * and share, so nothing a client authenticates with is kept in clear.
 */

/** Bodies longer than this, or not text, are kept as their size only. */
const KEPT_BODY_LENGTH = 4096;
const MASK = '<masked>';

/** Headers that carry credentials whole: base64 auth configs. */
const CREDENTIAL_HEADERS = new Set(['x-registry-auth', 'x-registry-config']);
/** A JSON string member that holds a credential, up to its closing quote (or the end of a text cut inside it). */
const JSON_SECRETS = /("(?:password|Password|identitytoken|IdentityToken|registrytoken|RegistryToken|access_token|refresh_token|token|auth)"\s*:\s*")(?:[^"\\]|\\.)*("|$)/g;
/** A form field that holds a credential (the token service's POST /token). */
const FORM_SECRETS = /(^|&)(password|refresh_token|access_token)=[^&]*/g;

export interface SentRequest {
  /** the headers the client set, credentials masked; the HTTP library's own (host, content-length) are not listed */
  headers?: Record<string, string>;
  /** the body as text, credentials masked, when it is text and short enough to keep */
  body?: string;
  /** the body's size in bytes, when there was one */
  bodyBytes?: number;
}

/** The credential-bearing parts of a body masked: JSON members and form fields. */
export function maskBodySecrets(text: string): string {
  return text.replace(JSON_SECRETS, `$1${MASK}$2`).replace(FORM_SECRETS, `$1$2=${MASK}`);
}

function maskHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (CREDENTIAL_HEADERS.has(lower)) return MASK;
  // The scheme stays: it tells a reader which kind of credential went.
  if (lower === 'authorization' || lower === 'proxy-authorization') return value.replace(/^(\S+\s+)?.*$/s, (_, scheme: string | undefined) => `${scheme ?? ''}${MASK}`);
  return value;
}

/** A body that reads as text: valid UTF-8 without NUL bytes (a tar archive has both problems). */
function asText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  const text = bytes.toString('utf8');
  return Buffer.byteLength(text) === bytes.length && !text.includes('\uFFFD') ? text : undefined;
}

export function recordSent(headers: Record<string, string>, body: Buffer | string | undefined): SentRequest {
  const sent: SentRequest = {};
  const names = Object.keys(headers);
  if (names.length > 0) sent.headers = Object.fromEntries(names.map((name) => [name, maskHeader(name, headers[name] ?? '')]));
  if (body === undefined) return sent;
  // Every request passes here: a string body (JSON, a form) is text already, not encoded and decoded again.
  sent.bodyBytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  const text = sent.bodyBytes > KEPT_BODY_LENGTH ? undefined : typeof body === 'string' ? body : asText(body);
  if (text !== undefined) sent.body = maskBodySecrets(text);
  return sent;
}
