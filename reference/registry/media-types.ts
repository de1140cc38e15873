/** The manifest media types the registry stores and dockerd 20.10 pushes and asks for. */
export const MANIFEST_V2 = 'application/vnd.docker.distribution.manifest.v2+json';
export const MANIFEST_LIST_V2 = 'application/vnd.docker.distribution.manifest.list.v2+json';
export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const IMAGE_CONFIG = 'application/vnd.docker.container.image.v1+json';
/** A plugin manifest's config: the plugin's config.json. */
export const PLUGIN_CONFIG = 'application/vnd.docker.plugin.v1+json';
export const GZIP_LAYER = 'application/vnd.docker.image.rootfs.diff.tar.gzip';

/** A manifest naming an image: its config and layers. */
export const IMAGE_MANIFEST_TYPES: readonly string[] = [MANIFEST_V2, OCI_MANIFEST];
/** A manifest naming other manifests, one per platform. */
export const MANIFEST_LIST_TYPES: readonly string[] = [MANIFEST_LIST_V2, OCI_INDEX];
