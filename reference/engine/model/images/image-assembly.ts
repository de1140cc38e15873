/**
 * An Image put together from its config document and its layers: the one way every image comes to
 * be (seeded, created, committed, built or loaded), so the id is always the document's digest.
 */
import { ImageLayerStack } from '../../filesystem/image-layer-stack.ts';
import type { Layer } from '../../filesystem/layer.ts';
import type { Image } from './image.ts';
import { imageIdOf, type ImageDocumentFields } from './image-document.ts';

/**
 * @param document the config document, kept byte for byte
 * @param fields what the document says
 * @param layers the image's layers, bottom first, its parent's included
 * @param parent the parent image's id, '' when none
 */
export function assembleImage(document: Buffer, fields: ImageDocumentFields, layers: readonly Layer[], parent: string): Image {
  const stack = new ImageLayerStack(layers);
  return {
    id: imageIdOf(document),
    repoTags: [],
    repoDigests: [],
    parent,
    created: fields.created,
    size: stack.size,
    layers: stack,
    architecture: fields.architecture,
    os: fields.os,
    config: fields.config,
    containerConfig: fields.containerConfig,
    container: fields.container,
    comment: fields.comment,
    author: fields.author,
    dockerVersion: fields.dockerVersion,
    history: fields.history,
    diffIds: fields.diffIds,
    configDocument: document,
  };
}
