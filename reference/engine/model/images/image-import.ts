/**
 * Importing a filesystem tar as a new one-layer image with no parent (POST /images/create with
 * fromSrc), as dockerd's ImportImage does: the name, tag and changes are checked before the archive
 * is read; the config is what the changes make of an empty one; the comment and the one history
 * step say where the tar came from. Publishes `tag` (when named), then `import`.
 */
import { applyConfigChanges } from '../../builder/config-changes.ts';
import { decompress } from '../../filesystem/archive-decompression.ts';
import { layerFromTar } from '../../filesystem/layer-tar.ts';
import { EngineError, InvalidParameterError } from '../common/errors.ts';
import { checkedImageReference, checkedTag, familiarAsGiven } from './image-reference.ts';
import type { ImageStore } from './image-store.ts';
import { emptyImageConfig, type Image, type ImageConfig } from './image.ts';

export interface ImportRequest {
  /** `-` for the request body, else the URL the tar was fetched from */
  source: string;
  repo?: string;
  tag?: string;
  message?: string;
  changes?: string[];
}

/** An import checked and ready for its archive. */
export interface ImportPlan {
  config: ImageConfig;
  comment: string;
  /** the name to give the image, as given (dockerd adds `latest` when storing it) */
  name?: string;
}

/** A tar that cannot be read as a layer: dockerd reports it after the progress it has streamed. */
export class BadArchiveError extends EngineError {
  override name = 'BadArchiveError';
}

/** Checks the request as dockerd does before it reads anything: the name, the tag, the changes. */
export function planImport(request: ImportRequest): ImportPlan {
  let name: string | undefined;
  if (request.repo) {
    const reference = checkedImageReference(request.repo);
    if (reference.digest !== undefined) throw new InvalidParameterError('cannot import digest reference');
    name = familiarAsGiven(request.tag ? { repository: reference.repository, tag: checkedTag(request.tag) } : reference);
  }
  return {
    config: applyConfigChanges(emptyImageConfig(), request.changes ?? []),
    comment: request.message || `Imported from ${request.source}`,
    ...(name !== undefined && { name }),
  };
}

export async function importArchive(images: ImageStore, plan: ImportPlan, archive: Buffer): Promise<Image> {
  const layer = await layerFromTar(await plainArchive(archive)).catch((error: Error) => {
    throw new BadArchiveError(`Error processing tar file(exit status 1): ${goTarError(error)}`);
  });
  const image = await images.create({
    layer,
    config: plan.config,
    containerConfig: emptyImageConfig(),
    comment: plan.comment,
    createdBy: '',
    tags: plan.name === undefined ? [] : [plan.name],
  });
  images.events.publish(image, 'import');
  return image;
}

/** A compressed tar undone (dockerd's DecompressStream), reporting a broken stream as dockerd does. */
async function plainArchive(archive: Buffer): Promise<Buffer> {
  try {
    return await decompress(archive);
  } catch {
    throw new BadArchiveError('Error processing tar file(unexpected EOF): ');
  }
}

/** Go's archive/tar words for what tar-stream reports. */
function goTarError(error: Error): string {
  if (/invalid tar header/i.test(error.message)) return 'archive/tar: invalid tar header';
  return 'unexpected EOF';
}
