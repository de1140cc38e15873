/**
 * The filters of the service list, dockerd's: id and name by prefix, label (key or key=value, every
 * one given), mode (replicated or global). Several values of one filter: any of them.
 */
import { anyValueHolds } from '../common/filter-values.ts';
import { matchesLabels } from '../common/label-match.ts';
import type { Service } from './service.ts';
import { isGlobal } from './service-spec.ts';

export interface ServiceListFilters {
  id?: string[];
  name?: string[];
  label?: string[];
  mode?: string[];
}

export function matchesServiceFilters(service: Service, filters: ServiceListFilters): boolean {
  const mode = isGlobal(service.spec.Mode) ? 'global' : 'replicated';
  return (
    anyValueHolds(filters.id, (prefix) => service.id.startsWith(prefix)) &&
    anyValueHolds(filters.name, (prefix) => service.name.startsWith(prefix)) &&
    matchesLabels(service.spec.Labels, filters.label ?? []) &&
    anyValueHolds(filters.mode, (wanted) => wanted === mode)
  );
}
