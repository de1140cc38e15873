/**
 * GET /images/{name}/history as dockerd's ImageHistory builds it: one item per history step, newest
 * first, each with the size of the layer it added (0 for a config-only step). Ids and tags come from
 * walking the parent chain from the image, one image per step: steps older than the chain (a pulled
 * or loaded image's own history) are `<missing>`.
 */
import type { ImageStore } from './image-store.ts';
import type { Image } from './image.ts';

export interface HistoryStep {
  id: string;
  created: Date;
  createdBy: string;
  comment: string;
  size: number;
  /** the tags of the step's image, none for `<missing>` */
  tags: string[];
}

export function imageHistory(images: ImageStore, image: Image): HistoryStep[] {
  let layer = 0;
  const steps = image.history.map((entry) => ({
    id: '<missing>',
    created: entry.created,
    createdBy: entry.createdBy,
    comment: entry.comment,
    size: entry.emptyLayer ? 0 : (image.layers.layers[layer++]?.size ?? 0),
    tags: [] as string[],
  }));
  steps.reverse();
  let current: Image | undefined = image;
  for (const step of steps) {
    if (current === undefined) break;
    step.id = current.id;
    step.tags = [...current.repoTags];
    current = current.parent === '' ? undefined : images.byId(current.parent);
  }
  return steps;
}
