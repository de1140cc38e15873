/**
 * Property: any sequence of pulls, enables, disables and removes (forced or not), on a few local
 * names, refers to plugins by name with or without `:latest` or by id prefix, and leaves the store
 * where a plain map of name to enabled says: each step succeeds or is refused (404 unknown, 409
 * conflict) exactly when the map says it should, the list holds the map's plugins, and every step
 * that succeeded published its one event.
 * The seed comes from SHIPSHAPE_SEED: `SHIPSHAPE_SEED=<seed> npx vitest run --project unit test/reference/plugins`.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { ConflictError, NotFoundError } from '../../../reference/engine/model/common/errors.ts';
import { EventBus } from '../../../reference/engine/model/events/event-bus.ts';
import { PluginEvents } from '../../../reference/engine/model/plugins/plugin-events.ts';
import { PluginStore } from '../../../reference/engine/model/plugins/plugin-store.ts';
import { randomId } from '../../../reference/engine/model/common/random-ids.ts';

const seed = Number(process.env.SHIPSHAPE_SEED ?? 424242);

const NAMES = ['alpha', 'beta', 'gamma'];

type Step = { op: 'pull' | 'enable' | 'disable' | 'remove' | 'force-remove'; name: number; by: 'name' | 'tagged' | 'id' };

const stepArbitrary: fc.Arbitrary<Step> = fc.record({
  op: fc.constantFrom('pull' as const, 'enable' as const, 'disable' as const, 'remove' as const, 'force-remove' as const),
  name: fc.nat(NAMES.length - 1),
  by: fc.constantFrom('name' as const, 'tagged' as const, 'id' as const),
});

/** What the step should end in, from the map of local name to enabled. */
function predicted(step: Step, enabled: Map<string, boolean>): 'ok' | typeof NotFoundError | typeof ConflictError {
  const state = enabled.get(NAMES[step.name] ?? '');
  if (step.op === 'pull') return state === undefined ? 'ok' : ConflictError;
  if (state === undefined) return NotFoundError;
  if (step.op === 'enable') return state ? ConflictError : 'ok';
  if (step.op === 'disable' || step.op === 'remove') return state === (step.op === 'disable') ? 'ok' : ConflictError;
  return 'ok';
}

test(`plugin steps succeed or are refused as a map of name to enabled says, and publish one event each (seed ${seed})`, () => {
  fc.assert(
    fc.property(fc.array(stepArbitrary, { maxLength: 40 }), (steps) => {
      const bus = new EventBus();
      const actions: string[] = [];
      bus.subscribe((event) => actions.push(`${event.action} ${event.attributes.name}`));
      const store = new PluginStore({ ids: randomId, events: new PluginEvents(bus, () => new Date(0)) });
      const enabled = new Map<string, boolean>();
      const expectedActions: string[] = [];
      const ids = new Map<string, string>();
      for (const step of steps) {
        const name = NAMES[step.name] ?? '';
        // a pull names the plugin it makes: by id only once there is one
        const byId = step.by === 'id' && step.op !== 'pull' ? ids.get(name)?.slice(0, 16) : undefined;
        const reference = byId ?? (step.by === 'tagged' ? `${name}:latest` : name);
        const outcome = predicted(step, enabled);
        const act = () => {
          if (step.op === 'pull') ids.set(name, store.pull('vieux/sshfs', reference).plugin.id);
          else if (step.op === 'enable') store.enable(reference);
          else if (step.op === 'disable') store.disable(reference);
          else store.remove(reference, step.op === 'force-remove');
        };
        if (outcome !== 'ok') {
          expect(act, `${step.op} ${reference}`).toThrow(outcome);
          continue;
        }
        act();
        expectedActions.push(`${step.op === 'force-remove' ? 'remove' : step.op} ${name}:latest`);
        if (step.op === 'pull' || step.op === 'disable') enabled.set(name, false);
        else if (step.op === 'enable') enabled.set(name, true);
        else enabled.delete(name);
      }
      const listed = new Map(store.list().map((plugin) => [plugin.repository, plugin.enabled]));
      expect(listed).toEqual(enabled);
      expect(actions).toEqual(expectedActions);
    }),
    { seed, numRuns: 200 },
  );
});
