/** The Authorization header's two schemes the token service and the accounts API take: Basic (RFC 7617) and Bearer (RFC 6750). */
export type Credentials = { scheme: 'basic'; username: string; password: string } | { scheme: 'bearer'; token: string };

/** The credentials, `undefined` without a header, `'malformed'` for a header that holds none we read. */
export function parseAuthorization(header: string | undefined): Credentials | 'malformed' | undefined {
  if (header === undefined) return undefined;
  const [scheme = '', value = ''] = header.trim().split(/\s+/, 2);
  if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return 'malformed';
    return { scheme: 'basic', username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  if (/^bearer$/i.test(scheme) && value !== '') return { scheme: 'bearer', token: value };
  return 'malformed';
}
