/**
 * Volumes as each API version shows them (spec/2 §2.3): Name, Driver and Mountpoint, and from 1.25
 * also Labels and Scope, with what dockerd adds there (CreatedAt, the driver Options). Empty labels
 * and options show as null, as dockerd's nil maps do, or are left out ("empty fields may be
 * omitted"). The local driver keeps a volume's files under the daemon's root directory.
 */
import type { Dialect } from '../../../protocol/dialect.ts';
import type { Volume } from '../model/volumes/volume.ts';
import type { AnswerShape } from './personality.ts';
import { engineRootDir } from './system-views.ts';

/** Where the local driver keeps a volume's files. */
export function volumeMountpoint(volume: Volume, dialect: Dialect): string {
  return `${engineRootDir(dialect)}/volumes/${volume.name}/_data`;
}

/** A map with nothing in it: null, or nothing at all when the personality omits empty fields. */
function emptyMap(map: Record<string, string>, omitsEmpty: boolean): { value: Record<string, string> | null } | undefined {
  if (Object.keys(map).length > 0) return { value: map };
  return omitsEmpty ? undefined : { value: null };
}

/** Fields in dockerd's order (its JSON has them sorted). */
export function volumeView(volume: Volume, { version, dialect, personality }: AnswerShape): Record<string, unknown> {
  const current = personality.shows(version, '1.25');
  const labels = emptyMap(volume.labels, personality.omitsEmpty);
  const options = emptyMap(volume.options, personality.omitsEmpty);
  return {
    // dockerd's RFC 3339 in whole seconds
    ...(current && { CreatedAt: volume.createdAt.toISOString().replace(/\.\d+Z$/, 'Z') }),
    Driver: volume.driver,
    ...(current && labels && { Labels: labels.value }),
    Mountpoint: volumeMountpoint(volume, dialect),
    Name: volume.name,
    ...(current && options && { Options: options.value }),
    ...(current && { Scope: 'local' }),
  };
}
