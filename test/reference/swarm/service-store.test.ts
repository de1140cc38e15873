/**
 * Services in the model: create (a name taken, a name made up), find, update at the service's version
 * only (a stale one changes nothing), removal, and every operation refused outside a swarm.
 */
import { describe, expect, test } from 'vitest';
import { ConflictError, EngineError, InvalidParameterError, NotFoundError, UnavailableError } from '../../../reference/engine/model/common/errors.ts';
import { NOT_A_MANAGER } from '../../../reference/engine/model/swarm/swarm-cluster.ts';
import { spec, swarmEngine } from './swarm-engine.ts';

describe('create and find', () => {
  test('a service is found by id, name and id prefix; a second of the same name is a conflict', () => {
    const { model } = swarmEngine();
    const service = model.services.create(spec({ name: 'web' }));
    expect([model.services.find(service.id), model.services.find('web'), model.services.find(service.id.slice(0, 10))]).toEqual([service, service, service]);
    expect(() => model.services.create(spec({ name: 'web' }))).toThrow(new ConflictError('rpc error: code = AlreadyExists desc = name conflicts with an existing object: service web already exists'));
    expect(() => model.services.find('api')).toThrow(new NotFoundError('service api not found'));
  });

  test('a service without a name gets one, and one without an image is refused', () => {
    const { model } = swarmEngine();
    expect(model.services.create(spec({ name: '' })).name).toMatch(/^[a-z]+_[a-z]+$/);
    const imageless = spec({ name: 'x' });
    imageless.TaskTemplate.ContainerSpec.Image = '';
    expect(() => model.services.create(imageless)).toThrow(InvalidParameterError);
  });
});

describe('update at a version', () => {
  test('at the current version the spec is replaced, the old one kept as previous, and the version moves on', () => {
    const { model } = swarmEngine();
    const service = model.services.create(spec({ labels: { a: '1' } }));
    const before = service.meta.versionIndex;
    model.services.update(service, before, spec({ labels: { a: '2' } }));
    expect({ labels: service.spec.Labels, previous: service.previousSpec?.Labels }).toEqual({ labels: { a: '2' }, previous: { a: '1' } });
    expect(service.meta.versionIndex).toBeGreaterThan(before);
  });

  test('at a stale version the update is refused (500, swarmkit\'s words) and nothing changes', () => {
    const { model } = swarmEngine();
    const service = model.services.create(spec({ labels: { a: '1' } }));
    const stale = service.meta.versionIndex;
    model.services.update(service, stale, spec({ labels: { a: '2' } }));
    const current = service.meta.versionIndex;
    expect(() => model.services.update(service, stale, spec({ labels: { a: '3' } }))).toThrow(new EngineError('rpc error: code = Unknown desc = update out of sequence'));
    expect({ labels: service.spec.Labels, version: service.meta.versionIndex }).toEqual({ labels: { a: '2' }, version: current });
  });
});

describe('outside a swarm', () => {
  test('services, tasks, the swarm and its node are dockerd\'s 503', () => {
    const { model } = swarmEngine(false);
    const unavailable = new UnavailableError(NOT_A_MANAGER);
    expect(() => model.services.create(spec())).toThrow(unavailable);
    expect(() => model.services.list()).toThrow(unavailable);
    expect(() => model.services.find('web')).toThrow(unavailable);
    expect(() => model.tasks.list()).toThrow(unavailable);
    expect(() => model.swarm.cluster).toThrow(unavailable);
    expect(() => model.swarm.findNode('x')).toThrow(unavailable);
  });
});
