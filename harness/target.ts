/**
 * What the user points Shipshape at: the embedded reference, a live daemon over a Unix socket,
 * plain TCP, or TLS, or an image whose daemon the run starts in a container. Parsing only —
 * connecting is the client's job, starting a container the run's.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface TlsFiles {
  /** PEM contents, not paths: the session travels to test workers as JSON */
  ca?: string;
  cert?: string;
  key?: string;
  skipVerify: boolean;
}

export interface Connection {
  /** `http://host:port` or `https://host:port`; for Unix sockets a placeholder origin */
  origin: string;
  socketPath?: string;
  tls?: TlsFiles;
}

export type TargetSpec =
  | { kind: 'reference' }
  | { kind: 'live'; url: string; connection: Connection }
  /** `container:IMAGE`: the run starts IMAGE on the Docker host and checks the daemon it serves */
  | { kind: 'container'; url: string; image: string };

export interface TlsFlags {
  ca?: string;
  cert?: string;
  key?: string;
  skipVerify?: boolean;
}

export class TargetError extends Error {
  override name = 'TargetError';
}

const UNIX_ORIGIN = 'http://engine.sock';

/** The URL as a report may show it: no user info, no query. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

function readPem(file: string, what: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new TargetError(`cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function tlsFromFlags(flags: TlsFlags, env: NodeJS.ProcessEnv): TlsFiles {
  const certPath = env.DOCKER_CERT_PATH;
  const pick = (flag: string | undefined, fileName: string) =>
    flag ?? (certPath && fs.existsSync(path.join(certPath, fileName)) ? path.join(certPath, fileName) : undefined);
  const ca = pick(flags.ca, 'ca.pem');
  const cert = pick(flags.cert, 'cert.pem');
  const key = pick(flags.key, 'key.pem');
  if ((cert === undefined) !== (key === undefined)) throw new TargetError('a TLS client certificate needs its key, and a key its certificate');
  return {
    ca: ca && readPem(ca, 'CA certificate'),
    cert: cert && readPem(cert, 'client certificate'),
    key: key && readPem(key, 'client key'),
    skipVerify: flags.skipVerify ?? false,
  };
}

/**
 * Parses `reference`, `unix:///path`, `tcp://host:port`, `http://…`, `https://…`, `container:IMAGE`.
 * With no target given, falls back to DOCKER_HOST (and DOCKER_TLS_VERIFY / DOCKER_CERT_PATH) like the
 * docker CLI does, and to the embedded reference when that is unset too.
 */
export function parseTarget(given: string | undefined, flags: TlsFlags = {}, env: NodeJS.ProcessEnv = process.env): TargetSpec {
  const fromEnv = given === undefined;
  const text = given ?? env.DOCKER_HOST ?? 'reference';
  if (text === 'reference') return { kind: 'reference' };
  if (text.startsWith('container:')) {
    const image = text.slice('container:'.length);
    if (!/^[\w][\w.\-/:@]*$/.test(image)) throw new TargetError(`--target: ${JSON.stringify(text)} names no image (container:IMAGE)`);
    return { kind: 'container', url: text, image };
  }

  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetError(`--target: ${JSON.stringify(text)} is not reference, unix://PATH, tcp://HOST:PORT, https://HOST:PORT or container:IMAGE`);
  }
  switch (url.protocol) {
    case 'unix:': {
      const socketPath = decodeURIComponent(url.pathname);
      if (!socketPath || socketPath === '/') throw new TargetError(`--target: ${text} names no socket path`);
      return { kind: 'live', url: `unix://${socketPath}`, connection: { origin: UNIX_ORIGIN, socketPath } };
    }
    case 'tcp:':
    case 'http:':
    case 'https:': {
      if (!url.port && url.protocol === 'tcp:') throw new TargetError(`--target: ${text} needs a port (tcp://HOST:PORT)`);
      const wantsTls =
        url.protocol === 'https:' ||
        (url.protocol === 'tcp:' && (Boolean(flags.ca || flags.cert) || (fromEnv && Boolean(env.DOCKER_TLS_VERIFY))));
      const hostPort = url.port ? `${url.hostname}:${url.port}` : url.hostname;
      const origin = `${wantsTls ? 'https' : 'http'}://${hostPort}`;
      const tls = wantsTls ? tlsFromFlags(flags, env) : undefined;
      return { kind: 'live', url: displayUrl(text), connection: { origin, tls } };
    }
    default:
      throw new TargetError(`--target: unsupported scheme ${url.protocol} in ${text} (use reference, unix://, tcp://, https:// or container:IMAGE)`);
  }
}
