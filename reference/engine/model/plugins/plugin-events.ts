/**
 * Plugin events as dockerd publishes them (its LogPluginEvent): type `plugin`, the actor the plugin's
 * id, its one attribute the plugin's `name` (`repository:tag`).
 */
import type { EventBus } from '../events/event-bus.ts';
import type { Plugin } from './plugin.ts';

export type PluginAction = 'pull' | 'create' | 'push' | 'enable' | 'disable' | 'remove';

export class PluginEvents {
  constructor(
    private readonly bus: EventBus,
    private readonly clock: () => Date,
  ) {}

  publish(plugin: Plugin, action: PluginAction): void {
    this.bus.publish({ type: 'plugin', action, actorId: plugin.id, attributes: { name: plugin.name }, time: this.clock() });
  }
}
