/**
 * The `remote` parameter as dockerd's builder reads it (builder/remotecontext/detect.go): a git
 * repository (`git://`, `git@`, `github.com/…`, or an http(s) URL ending in `.git`), an http(s) URL of
 * a context tar or of a single build file, or an error. The reference reaches no git server: a git
 * remote fails as `git clone` fails on a daemon without network. What an URL's answer is goes by its
 * Content-Type, sniffed from the bytes when the server says none or `application/octet-stream`.
 */
import { EngineError } from '../model/common/errors.ts';
import { compressionOf } from '../filesystem/archive-decompression.ts';

export type RemoteKind = 'git' | 'url';

const ACCEPTABLE_TYPE = /application\/(?:(?:x-)?tar|octet-stream|(?:x-)?(?:gzip|bzip2?|xz))|text\/plain/;
/** whether http.DetectContentType takes a byte for binary data */
function isBinaryByte(byte: number): boolean {
  return byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f);
}

/** @throws EngineError for a remote that is neither */
export function remoteKind(remote: string): RemoteKind {
  const url = /^https?:\/\//.test(remote);
  if ((url && /\.git(?:#.+)?$/.test(remote)) || /^(?:git:\/\/|github\.com\/|git@)/.test(remote)) return 'git';
  if (url) return 'url';
  throw new EngineError(`remoteURL (${remote}) could not be recognized as URL`);
}

/** What cloning a git remote answers without network. */
export function gitCloneError(remote: string): EngineError {
  const fatal = (text: string) => new EngineError(`error fetching: fatal: ${text}\n: exit status 128`);
  if (remote.startsWith('git@')) {
    const host = remote.slice('git@'.length).split(':', 1)[0] ?? '';
    return new EngineError(
      `error fetching: ssh: Could not resolve hostname ${host}: Name or service not known\r\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n: exit status 128`,
    );
  }
  if (remote.startsWith('git://')) return fatal(`unable to look up ${new URL(remote).hostname} (port 9418) (Name or service not known)`);
  const url = new URL(remote.startsWith('github.com/') ? `https://${remote}` : remote.replace(/#.*$/, ''));
  return fatal(`unable to access '${url.href.replace(/\/?$/, '/')}': Could not resolve host: ${url.hostname}`);
}

/**
 * Whether an URL's answer is a single build file (text/plain) rather than a context archive.
 * @throws EngineError for a Content-Type that is neither
 */
export function isSingleBuildfile(contentType: string, data: Buffer): boolean {
  const given = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  const type = given === '' || given === 'application/octet-stream' ? sniffedType(data) : given;
  const acceptable = ACCEPTABLE_TYPE.exec(type)?.[0];
  if (acceptable === undefined) throw new EngineError(`unsupported Content-Type ${JSON.stringify(contentType)}`);
  return acceptable === 'text/plain';
}

function sniffedType(data: Buffer): string {
  if (compressionOf(data) !== 'none') return 'application/x-tar';
  return data.subarray(0, 512).some(isBinaryByte) ? 'application/octet-stream' : 'text/plain';
}
