/**
 * Volumes as each API version shows them (spec/2 §2.3): Name, Driver and Mountpoint, and from 1.25
 * also Labels and Scope, with what dockerd adds there (CreatedAt, the driver Options). Empty labels
 * and options show as null, as dockerd's nil maps do. The local driver keeps a volume's files under
 * the daemon's root directory.
 */
import type { Dialect } from '../../../harness/dialect.ts';
import { atLeast } from '../../../harness/versions.ts';
import type { Volume } from '../model/volume.ts';
import { engineRootDir } from './system-views.ts';

/** Where the local driver keeps a volume's files. */
export function volumeMountpoint(volume: Volume, dialect: Dialect): string {
  return `${engineRootDir(dialect)}/volumes/${volume.name}/_data`;
}

function orNull(map: Record<string, string>): Record<string, string> | null {
  return Object.keys(map).length > 0 ? map : null;
}

/** Fields in dockerd's order (its JSON has them sorted). */
export function volumeView(volume: Volume, version: string, dialect: Dialect): Record<string, unknown> {
  const current = atLeast(version, '1.25');
  return {
    // dockerd's RFC 3339 in whole seconds
    ...(current && { CreatedAt: volume.createdAt.toISOString().replace(/\.\d+Z$/, 'Z') }),
    Driver: volume.driver,
    ...(current && { Labels: orNull(volume.labels) }),
    Mountpoint: volumeMountpoint(volume, dialect),
    Name: volume.name,
    ...(current && { Options: orNull(volume.options), Scope: 'local' }),
  };
}
