/**
 * The tar an import names by URL (`fromSrc=http://…`), a build's remote context or ADD source,
 * fetched as dockerd's GetWithStatusError fetches it: `http://` is assumed when no scheme is given,
 * and failures are worded as Go's HTTP client words them.
 */
import { EngineError, ForbiddenError, InvalidParameterError, NotFoundError } from '../model/common/errors.ts';
import { HttpError } from '../../http-error.ts';

export interface ImportDownload {
  /** the URL as dockerd prints it in `Downloading from …` and in the image's comment */
  url: string;
  archive: Buffer;
  /** Content-Length, or -1 when the server sent none */
  total: number;
  /** Content-Type, '' when the server sent none */
  contentType: string;
  /** Last-Modified, when the server sent one */
  lastModified?: Date;
}

export async function downloadImportSource(source: string): Promise<ImportDownload> {
  const withScheme = source.includes('://') ? source : `http://${source}`;
  const scheme = withScheme.slice(0, withScheme.indexOf('://'));
  const url = URL.canParse(withScheme) ? new URL(withScheme) : undefined;
  if (url === undefined || url.host === '') throw new EngineError(`Get "${scheme}:": http: no Host in request URL`);
  const address = withScheme;
  if (scheme !== 'http' && scheme !== 'https') throw new EngineError(`Get ${JSON.stringify(address)}: unsupported protocol scheme ${JSON.stringify(scheme)}`);
  const response = await fetch(url).catch((error: Error & { cause?: { code?: string; address?: string; port?: number } }) => {
    const cause = error.cause;
    if (cause?.code === 'ECONNREFUSED') throw new EngineError(`Get ${JSON.stringify(address)}: dial tcp ${cause.address}:${cause.port}: connect: connection refused`);
    if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') throw new EngineError(`Get ${JSON.stringify(address)}: dial tcp: lookup ${url.hostname}: no such host`);
    throw new EngineError(`Get ${JSON.stringify(address)}: ${cause?.code ?? error.message}`);
  });
  const archive = Buffer.from(await response.arrayBuffer());
  if (response.status >= 400) throw statusError(response.status, `failed to GET ${address} with status ${response.status} ${response.statusText}: ${archive.toString('utf8').trim()}`);
  const length = response.headers.get('content-length');
  const modified = response.headers.get('last-modified');
  return {
    url: address,
    archive,
    total: length === null ? -1 : Number(length),
    contentType: response.headers.get('content-type') ?? '',
    ...(modified !== null && !Number.isNaN(Date.parse(modified)) && { lastModified: new Date(modified) }),
  };
}

function statusError(status: number, message: string): Error {
  if (status === 404) return new NotFoundError(message);
  if (status === 400) return new InvalidParameterError(message);
  if (status === 401) return new HttpError(401, message);
  if (status === 403) return new ForbiddenError(message);
  return new EngineError(message);
}
