/** A `WWW-Authenticate: Bearer realm="…",service="…",scope="…"` challenge (RFC 6750 §3), as dockerd parses it. */
export interface BearerChallenge {
  realm: string;
  service: string;
  scope?: string;
}

/** The Bearer challenge of the header; undefined when it has none or no realm. */
export function bearerChallenge(header: string): BearerChallenge | undefined {
  const match = /^\s*Bearer\s+(.*)$/i.exec(header);
  if (match === null) return undefined;
  const parameters = new Map<string, string>();
  for (const [, name = '', quoted, bare] of (match[1] ?? '').matchAll(/([a-zA-Z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/g)) {
    parameters.set(name.toLowerCase(), quoted === undefined ? (bare ?? '') : quoted.replace(/\\(.)/g, '$1'));
  }
  const realm = parameters.get('realm');
  if (!realm) return undefined;
  const scope = parameters.get('scope');
  return { realm, service: parameters.get('service') ?? '', ...(scope !== undefined && { scope }) };
}
