/** The Authorization header's two schemes the token service and the accounts API take: Basic (RFC 7617) and Bearer (RFC 6750). */
export type Credentials = { scheme: 'basic'; username: string; password: string } | { scheme: 'bearer'; token: string };

/** RFC 7617's token68 as base64 (RFC 4648 §4): whole quanta, padding only at the end. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The credentials, `undefined` without a header, `'malformed'` for a header that holds none we read:
 * a scheme, one space or more, one token and nothing after it (trailing words or non-base64 are no
 * credentials, rather than credentials read from a prefix).
 */
export function parseAuthorization(header: string | undefined): Credentials | 'malformed' | undefined {
  if (header === undefined) return undefined;
  const parts = /^\s*(\S+) +(\S+)\s*$/.exec(header);
  if (!parts) return 'malformed';
  const [, scheme = '', value = ''] = parts;
  if (/^basic$/i.test(scheme)) {
    if (!BASE64.test(value)) return 'malformed';
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return 'malformed';
    return { scheme: 'basic', username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  if (/^bearer$/i.test(scheme)) return { scheme: 'bearer', token: value };
  return 'malformed';
}
