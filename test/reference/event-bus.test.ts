/** The event bus (bounded history, subscribers) and the events filter. */
import { describe, expect, test } from 'vitest';
import { EVENT_HISTORY_LIMIT, EventBus, type EngineEvent } from '../../reference/engine/model/events/event-bus.ts';
import { matchesEventFilters } from '../../reference/engine/model/events/event-filter.ts';

function event(action: string, seconds = 0, overrides: Partial<EngineEvent> = {}): EngineEvent {
  return {
    type: 'container',
    action,
    actorId: 'abc123',
    attributes: { image: 'busybox:latest', name: 'web', tier: 'front' },
    time: new Date(seconds * 1000),
    ...overrides,
  };
}

describe('EventBus', () => {
  test('subscribers get events as they are published, until they unsubscribe', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    const unsubscribe = bus.subscribe((published) => seen.push(published.action));
    bus.publish(event('create'));
    expect(bus.listenerCount).toBe(1);
    unsubscribe();
    bus.publish(event('start'));
    expect([seen, bus.listenerCount]).toEqual([['create'], 0]);
  });

  test('keeps the last events only, for since', () => {
    const bus = new EventBus();
    for (let second = 0; second < EVENT_HISTORY_LIMIT + 10; second++) bus.publish(event('start', second));
    expect(bus.since(new Date(0))).toHaveLength(EVENT_HISTORY_LIMIT);
    expect(bus.since(new Date((EVENT_HISTORY_LIMIT + 8) * 1000)).map((kept) => kept.time.getTime() / 1000)).toEqual([EVENT_HISTORY_LIMIT + 8, EVENT_HISTORY_LIMIT + 9]);
  });
});

describe('matchesEventFilters', () => {
  test.each([
    [{}, true],
    [{ type: ['container'] }, true],
    [{ type: ['image'] }, false],
    [{ container: ['abc'] }, true],
    [{ container: ['web'] }, true],
    [{ container: ['other'] }, false],
    [{ event: ['die'] }, true],
    [{ event: ['start'] }, false],
    [{ image: ['busybox'] }, true],
    [{ image: ['alpine'] }, false],
    [{ label: ['tier=front'] }, true],
    [{ label: ['tier=back'] }, false],
    [{ type: ['container'], container: ['web', 'other'], event: ['die', 'destroy'] }, true],
  ])('%j: %s', (filters, expected) => {
    expect(matchesEventFilters(event('die'), filters)).toBe(expected);
  });

  test('an action that carries its command matches its first word', () => {
    expect(matchesEventFilters(event('exec_start: sh -c true'), { event: ['exec_start'] })).toBe(true);
  });
});
