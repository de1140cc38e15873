/**
 * What the reference says it is, for GET /version and GET /info. The engine release that serves API
 * 1.25 is 1.13, hence the version number.
 */
import { createHash } from 'node:crypto';

export const ENGINE_VERSION = '1.13.0-shipshape';
export const GIT_COMMIT = createHash('sha256').update(ENGINE_VERSION).digest('hex').slice(0, 7);
/** the engine reports the Go toolchain it was built with; ours is Node's */
export const GO_VERSION = `node${process.versions.node}`;
export const BUILD_TIME = '2017-01-18T05:09:53.195853223Z';
export const STORAGE_DRIVER = 'vfs';
