/**
 * The filters of the volume list (spec/2 §4.3): name and driver, all or part of it (a pattern, as
 * dockerd matches names); label, key or key=value, every one given; dangling, whether no container
 * uses the volume. Several values of name or driver: any of them.
 */
import { matchesAnyPattern } from '../common/filter-values.ts';
import { InvalidParameterError } from '../common/errors.ts';
import { matchesLabels } from '../common/label-match.ts';
import type { Volume } from './volume.ts';

export interface VolumeListFilters {
  name?: string[];
  driver?: string[];
  label?: string[];
  /** `true` or `1`: only volumes no container uses; `false` or `0`: only those in use */
  dangling?: string[];
}

/** dockerd's reading of dangling: true when a value says so, else false when one says so, else an error. */
export function checkedDangling(values: string[] | undefined): boolean | undefined {
  if (values === undefined) return undefined;
  if (values.includes('true') || values.includes('1')) return true;
  if (values.includes('false') || values.includes('0')) return false;
  throw new InvalidParameterError(`Invalid filter 'dangling=[${values.join(' ')}]'`);
}

export function matchesVolumeFilters(volume: Volume, filters: VolumeListFilters, inUse: boolean, dangling: boolean | undefined): boolean {
  return (
    matchesAnyPattern(filters.name, volume.name) &&
    matchesAnyPattern(filters.driver, volume.driver) &&
    matchesLabels(volume.labels, filters.label ?? []) &&
    (dangling === undefined || dangling !== inUse)
  );
}
