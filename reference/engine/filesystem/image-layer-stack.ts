/**
 * An image's read-only layers, prepared once per image and shared by every container created from
 * it: a container's filesystem only adds its own writable layer on top, so creating one costs the
 * same whatever the image holds.
 */
import type { LayerView } from './layer-index.ts';
import type { Layer } from './layer.ts';
import { MergedView } from './merged-view.ts';
import { INIT_LAYER } from './mount-points.ts';

export class ImageLayerStack {
  /** the image's layers and the init layer under them, top first */
  readonly topFirst: readonly LayerView[];
  /** the image's filesystem as it is, without any container's changes */
  readonly view: MergedView;
  /** what dockerd reports as the image's size: the sum of its layers' sizes */
  readonly size: number;

  /** @param layers the image's layers, bottom first (the order of an image's RootFS.Layers) */
  constructor(readonly layers: readonly Layer[]) {
    this.topFirst = [...layers].reverse().concat(INIT_LAYER);
    this.view = new MergedView(this.topFirst);
    this.size = layers.reduce((sum, layer) => sum + layer.size, 0);
  }
}
