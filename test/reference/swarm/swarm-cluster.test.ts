/**
 * The swarm's lifecycle in the model: a reset takes the engine back to how it started (in a swarm
 * or outside one), and leaving runs what the stores of swarm objects registered.
 */
import { describe, expect, test } from 'vitest';
import { UnavailableError } from '../../../reference/engine/model/common/errors.ts';
import { swarmEngine } from './swarm-engine.ts';

const INIT = { listenAddr: '0.0.0.0:2377', advertiseAddr: '127.0.0.1', spec: {} };

describe('the swarm cluster', () => {
  test('an engine started in a swarm is back in one after a leave and a reset; its node id is new', () => {
    const { model } = swarmEngine(true);
    const first = model.swarm.node.id;
    model.swarm.leave(true);
    expect(model.swarm.active).toBe(false);
    model.reset();
    expect([model.swarm.active, model.swarm.node.id === first]).toEqual([true, false]);
  });

  test('an engine started outside a swarm is outside again after an init and a reset', () => {
    const { model } = swarmEngine(false);
    expect(model.swarm.init(INIT)).toBe(model.swarm.node.id);
    model.reset();
    expect(model.swarm.active).toBe(false);
    expect(() => model.swarm.cluster).toThrow(UnavailableError);
  });

  test('leave runs the listeners the stores registered, once per leave', () => {
    const { model } = swarmEngine(true);
    let left = 0;
    model.swarm.onLeave(() => (left += 1));
    model.swarm.leave(true);
    expect(() => model.swarm.leave(true)).toThrow(UnavailableError);
    expect(left).toBe(1);
  });

  test('the manager address comes from the advertised address, with the listen port when it names none', () => {
    const { model } = swarmEngine(false);
    model.swarm.init({ listenAddr: '0.0.0.0:4500', advertiseAddr: '127.0.0.1', spec: {} });
    expect([model.swarm.nodeAddress, model.swarm.managerAddress]).toEqual(['127.0.0.1', '127.0.0.1:4500']);
  });
});
