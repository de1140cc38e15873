/**
 * The registry's state, with no HTTP: blobs by digest, each linked to the repositories it was pushed
 * to or mounted into; uploads in progress; manifests by digest and tags per repository. A manifest
 * is kept byte for byte (its digest is the sha256 of those bytes) and refused when it names a blob
 * or manifest the repository lacks, as distribution refuses it.
 */
import { createHash, randomUUID } from 'node:crypto';
import { RegistryError } from './registry-errors.ts';
import { IMAGE_MANIFEST_TYPES, MANIFEST_LIST_TYPES } from './media-types.ts';

export interface StoredManifest {
  digest: string;
  mediaType: string;
  body: Buffer;
}

interface Repository {
  blobs: Set<string>;
  manifests: Map<string, StoredManifest>;
  tags: Map<string, string>;
}

interface Upload {
  repository: string;
  chunks: Buffer[];
  size: number;
}

const DIGEST = /^sha256:[a-f0-9]{64}$/;
const TAG = /^[\w][\w.-]{0,127}$/;

export function sha256Digest(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

export class RegistryStorage {
  private readonly blobs = new Map<string, Buffer>();
  private readonly repositories = new Map<string, Repository>();
  private readonly uploads = new Map<string, Upload>();

  /** A blob the repository holds; BLOB_UNKNOWN otherwise. */
  blob(repository: string, digest: string): Buffer {
    const blob = this.repositories.get(repository)?.blobs.has(checkedDigest(digest)) ? this.blobs.get(digest) : undefined;
    if (blob === undefined) throw new RegistryError('BLOB_UNKNOWN', { digest });
    return blob;
  }

  /** A new upload session's id. */
  startUpload(repository: string): string {
    const id = randomUUID();
    this.uploads.set(id, { repository, chunks: [], size: 0 });
    return id;
  }

  /** A chunk appended; the upload's size after it. */
  appendToUpload(repository: string, id: string, chunk: Buffer): number {
    const upload = this.upload(repository, id);
    upload.chunks.push(chunk);
    upload.size += chunk.length;
    return upload.size;
  }

  uploadedSize(repository: string, id: string): number {
    return this.upload(repository, id).size;
  }

  cancelUpload(repository: string, id: string): void {
    this.upload(repository, id);
    this.uploads.delete(id);
  }

  /** The upload with its last chunk becomes the blob `digest`, which it must hash to. */
  completeUpload(repository: string, id: string, digest: string, lastChunk: Buffer): void {
    const upload = this.upload(repository, id);
    const content = Buffer.concat([...upload.chunks, lastChunk]);
    this.uploads.delete(id);
    this.putBlob(repository, digest, content);
  }

  /** A whole blob in one request (POST with `digest`). */
  putBlob(repository: string, digest: string, content: Buffer): void {
    if (sha256Digest(content) !== checkedDigest(digest)) throw new RegistryError('DIGEST_INVALID', { digest });
    this.blobs.set(digest, content);
    this.repository(repository).blobs.add(digest);
  }

  /** Cross-repository mount: true when `from` holds the blob, which `repository` now holds too. */
  mountBlob(repository: string, digest: string, from: string): boolean {
    if (!this.repositories.get(from)?.blobs.has(checkedDigest(digest))) return false;
    this.repository(repository).blobs.add(digest);
    return true;
  }

  /** A manifest stored under its digest, and under `reference` when that is a tag; returns its digest. */
  putManifest(repository: string, reference: string, mediaType: string, body: Buffer): string {
    const digest = sha256Digest(body);
    if (DIGEST.test(reference) && reference !== digest) throw new RegistryError('DIGEST_INVALID', { digest: reference });
    if (!DIGEST.test(reference) && !TAG.test(reference)) throw new RegistryError('TAG_INVALID', { tag: reference });
    const repo = this.repository(repository);
    for (const needed of referencedDigests(mediaType, body)) {
      const known = needed.kind === 'blob' ? repo.blobs.has(needed.digest) : repo.manifests.has(needed.digest);
      if (!known) throw new RegistryError(needed.kind === 'blob' ? 'MANIFEST_BLOB_UNKNOWN' : 'MANIFEST_UNKNOWN', { digest: needed.digest });
    }
    repo.manifests.set(digest, { digest, mediaType, body });
    if (!DIGEST.test(reference)) repo.tags.set(reference, digest);
    return digest;
  }

  /** A manifest by tag or digest; MANIFEST_UNKNOWN when there is none. */
  manifest(repository: string, reference: string): StoredManifest {
    const repo = this.repositories.get(repository);
    const digest = DIGEST.test(reference) ? reference : repo?.tags.get(reference);
    const manifest = digest === undefined ? undefined : repo?.manifests.get(digest);
    if (manifest === undefined) throw new RegistryError('MANIFEST_UNKNOWN', DIGEST.test(reference) ? { digest: reference } : { tag: reference });
    return manifest;
  }

  /** The repository's tags, sorted; NAME_UNKNOWN for a repository never pushed to. */
  tags(repository: string): string[] {
    const repo = this.repositories.get(repository);
    if (repo === undefined) throw new RegistryError('NAME_UNKNOWN', { name: repository });
    return [...repo.tags.keys()].sort();
  }

  private upload(repository: string, id: string): Upload {
    const upload = this.uploads.get(id);
    if (upload === undefined || upload.repository !== repository) throw new RegistryError('BLOB_UPLOAD_UNKNOWN');
    return upload;
  }

  private repository(name: string): Repository {
    let repo = this.repositories.get(name);
    if (repo === undefined) {
      repo = { blobs: new Set(), manifests: new Map(), tags: new Map() };
      this.repositories.set(name, repo);
    }
    return repo;
  }
}

function checkedDigest(digest: string): string {
  if (!DIGEST.test(digest)) throw new RegistryError('DIGEST_INVALID', { digest });
  return digest;
}

interface Descriptor {
  digest?: unknown;
}

/** What a manifest names: an image manifest its config and layers, a list its manifests. */
function referencedDigests(mediaType: string, body: Buffer): Array<{ kind: 'blob' | 'manifest'; digest: string }> {
  let document: { mediaType?: unknown; config?: Descriptor; layers?: Descriptor[]; manifests?: Descriptor[] };
  try {
    document = JSON.parse(body.toString('utf8')) as typeof document;
  } catch {
    throw new RegistryError('MANIFEST_INVALID', 'not JSON');
  }
  const digests = (descriptors: unknown) => {
    if (!Array.isArray(descriptors)) throw new RegistryError('MANIFEST_INVALID', `${mediaType} without its descriptors`);
    return (descriptors as Descriptor[]).map((descriptor) => {
      if (typeof descriptor?.digest !== 'string' || !DIGEST.test(descriptor.digest)) throw new RegistryError('MANIFEST_INVALID', 'a descriptor without a digest');
      return descriptor.digest;
    });
  };
  if (IMAGE_MANIFEST_TYPES.includes(mediaType)) {
    return [...digests([document.config]), ...digests(document.layers)].map((digest) => ({ kind: 'blob' as const, digest }));
  }
  if (MANIFEST_LIST_TYPES.includes(mediaType)) return digests(document.manifests).map((digest) => ({ kind: 'manifest' as const, digest }));
  throw new RegistryError('MANIFEST_INVALID', `unsupported manifest media type ${JSON.stringify(mediaType)}`);
}
