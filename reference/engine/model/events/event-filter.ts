/**
 * Which events a `GET /events` filter lets through, as dockerd's events filter decides: every filter
 * given must hold; object filters (container, volume, …) match the actor's id or name by prefix, as
 * dockerd's FuzzyMatch does, so a short id or a name works.
 */
import type { EngineEvent } from './event-bus.ts';
import { matchesLabels } from '../common/label-match.ts';

/** Filter names that match an actor by id or `name` attribute. */
const OBJECT_FILTERS = ['container', 'volume', 'network', 'plugin', 'daemon', 'node', 'service', 'secret', 'config'] as const;

export const EVENT_FILTER_NAMES: readonly string[] = ['type', 'event', 'image', 'label', ...OBJECT_FILTERS];

export type EventFilters = Partial<Record<string, string[]>>;

export function matchesEventFilters(event: EngineEvent, filters: EventFilters): boolean {
  return (
    exactly(filters.type, event.type) &&
    matchesAction(filters.event, event.action) &&
    matchesImage(filters.image, event) &&
    (filters.label === undefined || filters.label.length === 0 || matchesLabels(event.attributes, filters.label)) &&
    OBJECT_FILTERS.every((name) => fuzzy(filters[name], event.actorId) || fuzzy(filters[name], event.attributes.name))
  );
}

function exactly(wanted: string[] | undefined, value: string | undefined): boolean {
  if (!wanted?.length) return true;
  return value !== undefined && wanted.includes(value);
}

/** Equal, or the value starts with a wanted one. */
function fuzzy(wanted: string[] | undefined, value: string | undefined): boolean {
  if (!wanted?.length) return true;
  return value !== undefined && wanted.some((prefix) => value.startsWith(prefix));
}

/** Actions that carry their command (`exec_start: sh -c …`) are matched by their first word too. */
function matchesAction(wanted: string[] | undefined, action: string): boolean {
  if (!wanted?.length) return true;
  return wanted.includes(action) || wanted.includes(action.split(':', 1)[0] ?? action);
}

/** The image an event names: its actor for image events, the `image` attribute for the others; with or without its tag. */
function matchesImage(wanted: string[] | undefined, event: EngineEvent): boolean {
  if (!wanted?.length) return true;
  const name = event.type === 'image' ? event.attributes.name : event.attributes.image;
  const candidates = [event.actorId, name].filter((value): value is string => value !== undefined);
  return candidates.some((candidate) => wanted.includes(candidate) || wanted.includes(withoutTag(candidate)));
}

function withoutTag(name: string): string {
  if (name.startsWith('sha256:')) return name;
  const colon = name.lastIndexOf(':');
  return colon > name.lastIndexOf('/') ? name.slice(0, colon) : name;
}
