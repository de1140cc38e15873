import { expect, test } from 'vitest';
import { EngineModel } from '../../../reference/engine/model/engine-model.ts';
import { emptyImageConfig } from '../../../reference/engine/model/images/image.ts';

/** What the image sets, each of which a container inherits. */
const INHERITED = {
  Cmd: ['serve'],
  Entrypoint: ['/bin/app'],
  Env: ['PATH=/bin', 'MODE=image'],
  User: 'nobody',
  WorkingDir: '/srv',
  Labels: { from: 'image' },
  ExposedPorts: { '80/tcp': {} },
  Volumes: { '/data': {} },
  StopSignal: 'SIGQUIT',
  Healthcheck: { Test: ['CMD-SHELL', 'true'], Interval: 5e9, Retries: 4 },
};

async function modelWithImage() {
  const model = new EngineModel();
  await model.images.create({ parent: model.images.find('busybox'), config: { ...emptyImageConfig(), ...INHERITED, Shell: ['/bin/sh', '-l', '-c'] }, createdBy: 'test', tags: ['app'] });
  return model;
}

test('a container inherits what its request leaves empty, as dockerd merges them (not the image\'s SHELL)', async () => {
  const config = (await modelWithImage()).containers.create({ config: { Image: 'app' } }).config;
  expect(config).toMatchObject(INHERITED);
  expect(config).not.toHaveProperty('Shell');
  expect(Object.keys(config).slice(0, 7)).toEqual(['Hostname', 'Domainname', 'User', 'AttachStdin', 'AttachStdout', 'AttachStderr', 'ExposedPorts']);
});

test('what the request gives wins, and ports and volumes add up', async () => {
  const config = (await modelWithImage()).containers.create({
    config: { Image: 'app', User: 'root', Env: ['MODE=request'], ExposedPorts: { '53/udp': {} }, Volumes: { '/logs': {} }, StopSignal: 'SIGINT', Labels: { own: '1' } },
  }).config;
  expect(config).toMatchObject({
    User: 'root',
    Env: ['MODE=request', 'PATH=/bin'],
    ExposedPorts: { '80/tcp': {}, '53/udp': {} },
    Volumes: { '/data': {}, '/logs': {} },
    StopSignal: 'SIGINT',
    Labels: { from: 'image', own: '1' },
  });
});

test('a healthcheck the request gives takes each part it leaves empty from the image\'s (dockerd 20.10)', async () => {
  const config = (await modelWithImage()).containers.create({ config: { Image: 'app', Healthcheck: { Test: ['CMD', 'true'], Timeout: 3e9 } } }).config;
  expect(config.Healthcheck).toEqual({ Test: ['CMD', 'true'], Interval: 5e9, Timeout: 3e9, Retries: 4 });
});

test('an image without ports leaves them out of the container config', () => {
  const config = new EngineModel().containers.create({ config: { Image: 'busybox', ExposedPorts: {} } }).config;
  expect(config).not.toHaveProperty('ExposedPorts');
  expect(config.Volumes).toBeNull();
});
