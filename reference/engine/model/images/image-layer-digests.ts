/**
 * The digests dockerd names layers by: a layer's diff id is the sha256 of its uncompressed tar, and
 * the chain id of a stack names the stack as a whole (the bottom layer's diff id, then
 * sha256("<chain id below> <diff id>") for each layer above), which is what deleting an image
 * reports for the layers it frees.
 */
import { createHash } from 'node:crypto';
import { layerToTar } from '../../filesystem/layer-tar.ts';
import type { Layer } from '../../filesystem/layer.ts';

export async function diffIdOf(layer: Layer): Promise<string> {
  return sha256Digest(await layerToTar(layer));
}

/** The chain id of each prefix of the stack, bottom first. */
export function chainIds(diffIds: readonly string[]): string[] {
  const chain: string[] = [];
  for (const diffId of diffIds) chain.push(chain.length === 0 ? diffId : sha256Digest(Buffer.from(`${chain[chain.length - 1]} ${diffId}`)));
  return chain;
}

function sha256Digest(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}
