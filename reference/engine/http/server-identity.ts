/** Headers every answer carries, as dockerd sends its own. */
import { CURRENT_VERSION } from '../../../protocol/versions.ts';
import { ENGINE_VERSION } from '../model/common/daemon-build.ts';

export const IDENTITY_HEADERS = {
  'Api-Version': CURRENT_VERSION,
  Server: `Shipshape-Reference/${ENGINE_VERSION} (linux)`,
} as const;
