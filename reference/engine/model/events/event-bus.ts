/**
 * The one event bus every action of the engine publishes to (spec/2 §6). Subscribers get events as
 * they happen; the last EVENT_HISTORY_LIMIT are kept for `since`, so memory stays flat however long
 * the engine runs. dockerd keeps 256; the reference keeps more because one reference serves all eight
 * version projects at once, whose events turned 256 over in under a second and broke `since` windows.
 */

export type EngineEventType = 'container' | 'image' | 'volume' | 'network' | 'daemon' | 'plugin';

export interface EngineEvent {
  type: EngineEventType;
  /** `create`, `die`, `exec_create: sh -c …` */
  action: string;
  /** the id of the object the event is about */
  actorId: string;
  attributes: Record<string, string>;
  time: Date;
}

export type EventListener = (event: EngineEvent) => void;

export const EVENT_HISTORY_LIMIT = 4096;

export class EventBus {
  private readonly history: EngineEvent[] = [];
  private readonly listeners = new Set<EventListener>();
  /** the engine's own parts that act on events (healthchecks, published ports), told before the listeners */
  private readonly observers: EventListener[] = [];

  publish(event: EngineEvent): void {
    this.history.push(event);
    if (this.history.length > EVENT_HISTORY_LIMIT) this.history.shift();
    for (const observer of this.observers) observer(event);
    for (const listener of [...this.listeners]) listener(event);
  }

  /** A part of the engine that follows every event for as long as the engine lives; it is no listener (listenerCount). */
  observe(observer: EventListener): void {
    this.observers.push(observer);
  }

  /** Returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** the subscribers: event streams of clients, which go when they unsubscribe */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** The kept events from `since` (inclusive), oldest first. */
  since(since: Date): EngineEvent[] {
    return this.history.filter((event) => event.time.getTime() >= since.getTime());
  }

  clear(): void {
    this.history.length = 0;
  }
}
