/**
 * The synthetic `busybox:latest` the reference starts with. Its id is the digest of its config, as
 * for a real image, so it is the same in every run on the same architecture.
 */
import { createHash } from 'node:crypto';
import { busyboxRootfsLayer } from '../filesystem/busybox-layer.ts';
import { ImageLayerStack } from '../filesystem/image-layer-stack.ts';
import type { Image, ImageConfig } from './image.ts';
import { hostFacts } from './host-facts.ts';

const CREATED = new Date('2016-10-07T21:03:58.469Z');
/** the size of busybox 1.25's single layer, which the synthetic rootfs stands for */
const SIZE = 1_093_484;

const CONFIG: ImageConfig = {
  Cmd: ['sh'],
  Entrypoint: null,
  Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
  Labels: {},
  WorkingDir: '',
};

export function busyboxImage(): Image {
  const architecture = hostFacts().goArch;
  const digest = createHash('sha256')
    .update(JSON.stringify({ architecture, config: CONFIG, created: CREATED.toISOString(), os: 'linux' }))
    .digest('hex');
  const layers = new ImageLayerStack([busyboxRootfsLayer({ size: SIZE })]);
  return {
    id: `sha256:${digest}`,
    repoTags: ['busybox:latest'],
    repoDigests: [],
    parent: '',
    created: CREATED,
    size: layers.size,
    layers,
    architecture,
    os: 'linux',
    config: structuredClone(CONFIG),
  };
}
