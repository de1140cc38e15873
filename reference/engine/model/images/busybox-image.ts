/**
 * The synthetic `busybox:latest` the reference starts with: one layer and the two history steps of
 * the hub's busybox (ADD the rootfs, then CMD). Its id is the digest of its config document, as for
 * any image, so it is the same in every run on the same architecture.
 */
import { busyboxRootfsLayer } from '../../filesystem/busybox-layer.ts';
import { assembleImage } from './image-assembly.ts';
import { writeImageDocument, type ImageDocumentFields } from './image-document.ts';
import { diffIdOf } from './image-layer-digests.ts';
import { emptyImageConfig, type Image } from './image.ts';
import { hostFacts } from '../common/host-facts.ts';

const CREATED = new Date('2016-10-07T21:03:58.469Z');
const ADDED = new Date('2016-10-07T21:03:58.16Z');
/** the size of busybox 1.25's single layer, which the synthetic rootfs stands for */
const SIZE = 1_093_484;
const DOCKER_VERSION = '1.12.1';

/** computed once: the layer never changes, and creating an image must stay synchronous for the seed */
const DIFF_ID = await diffIdOf(busyboxRootfsLayer());

export function busyboxImage(): Image {
  const config = { ...emptyImageConfig(), Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'], Cmd: ['sh'] };
  const fields: ImageDocumentFields = {
    architecture: hostFacts().goArch,
    os: 'linux',
    created: CREATED,
    config,
    containerConfig: { ...config, Cmd: ['/bin/sh', '-c', '#(nop) ', 'CMD ["sh"]'] },
    container: '',
    comment: '',
    author: '',
    dockerVersion: DOCKER_VERSION,
    history: [
      { created: ADDED, createdBy: '/bin/sh -c #(nop) ADD file:ced3aa7577c8f970403004e45dd91e9240b1e3ee8bd109178822310bb5c4a4f7 in / ', comment: '', emptyLayer: false },
      { created: CREATED, createdBy: '/bin/sh -c #(nop)  CMD ["sh"]', comment: '', emptyLayer: true },
    ],
    diffIds: [DIFF_ID],
  };
  const image = assembleImage(writeImageDocument(fields), fields, [busyboxRootfsLayer({ size: SIZE })], '');
  image.repoTags.push('busybox:latest');
  return image;
}
