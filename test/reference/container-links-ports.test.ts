/** Links, published ports, the endpoint's MAC address and shared bind directories of the model. */
import { describe, expect, test } from 'vitest';
import { removeLink } from '../../reference/engine/model/containers/container-links.ts';
import { EngineError, NotFoundError } from '../../reference/engine/model/common/errors.ts';
import { listedPorts } from '../../reference/engine/model/containers/container-ports.ts';
import { manualEngine } from './manual-engine.ts';

describe('links', () => {
  test('are kept as /<child>:/<parent>/<alias>, and give the linking process the child\'s address, ports and environment', async () => {
    const { model, create, run, advance } = manualEngine();
    run(['sleep', '300'], { name: 'db', config: { Env: ['SECRET=x', 'PATH=/bin'], ExposedPorts: { '5432/tcp': {}, '53/udp': {} } } });
    const app = create(['env'], { name: 'app', hostConfig: { Links: ['db:db-x'] } });
    expect(app.hostConfig.Links).toEqual(['/db:/app/db-x']);
    model.lifecycle.start(app);
    await advance(10);
    const env = app.linkEnvironment;
    const ip = model.containers.find('db').networks.bridge?.IPAddress;
    expect(env).toEqual([
      `DB_X_PORT=udp://${ip}:53`,
      `DB_X_PORT_53_UDP=udp://${ip}:53`, `DB_X_PORT_53_UDP_ADDR=${ip}`, 'DB_X_PORT_53_UDP_PORT=53', 'DB_X_PORT_53_UDP_PROTO=udp',
      `DB_X_PORT_5432_TCP=tcp://${ip}:5432`, `DB_X_PORT_5432_TCP_ADDR=${ip}`, 'DB_X_PORT_5432_TCP_PORT=5432', 'DB_X_PORT_5432_TCP_PROTO=tcp',
      'DB_X_NAME=/app/db-x',
      'DB_X_ENV_SECRET=x',
    ]);
    model.lifecycle.shutdown();
  });

  test('a linked container that does not run refuses the start', () => {
    const { model, create } = manualEngine();
    create(['true'], { name: 'db' });
    const app = create(['env'], { name: 'app', hostConfig: { Links: ['db:db'] } });
    expect(() => model.lifecycle.start(app)).toThrow(new EngineError('Cannot link to a non running container: /db AS /app/db'));
  });

  test('removeLink takes one link off; an unknown one is not found', () => {
    const { model, create } = manualEngine();
    create(['true'], { name: 'db' });
    const app = create(['true'], { name: 'app', hostConfig: { Links: ['db:db'] } });
    removeLink(model.containers, 'app/db');
    expect(app.hostConfig.Links).toBeNull();
    expect(() => removeLink(model.containers, 'app/db')).toThrow(new NotFoundError('No such container: app/db'));
  });
});

describe('published ports', () => {
  test('a running container publishes its bindings of exposed ports, an empty HostPort from the ephemeral range, and none once it ends', async () => {
    const { model, run, advance } = manualEngine();
    const container = run(['sleep', '300'], {
      config: { ExposedPorts: { '80/tcp': {}, '81/tcp': {}, '90/tcp': {} } },
      hostConfig: { PortBindings: { '80/tcp': [{ HostIp: '127.0.0.1', HostPort: '8080' }], '81/tcp': [{ HostPort: '' }] } },
    });
    expect(container.publishedPorts).toEqual({
      '80/tcp': [{ HostIp: '127.0.0.1', HostPort: '8080' }],
      '81/tcp': [{ HostIp: '0.0.0.0', HostPort: '32768' }, { HostIp: '::', HostPort: '32768' }],
      '90/tcp': null,
    });
    expect(listedPorts(container.publishedPorts)[0]).toEqual({ IP: '127.0.0.1', PrivatePort: 80, PublicPort: 8080, Type: 'tcp' });
    await model.lifecycle.kill(container);
    await advance(10);
    expect(container.publishedPorts).toBeUndefined();
  });
});

describe('networking and binds', () => {
  test('Config.MacAddress is the address of the endpoint on the container\'s network', () => {
    const { model, run } = manualEngine();
    const container = run(['sleep', '300'], { config: { MacAddress: '02:42:ac:11:fe:07' } });
    expect(container.networks.bridge?.MacAddress).toBe('02:42:ac:11:fe:07');
    model.lifecycle.shutdown();
  });

  test('containers that bind the same host path share its files', () => {
    const { create } = manualEngine();
    const writer = create(['true'], { hostConfig: { Binds: ['/srv/data:/data'] } });
    writer.filesystem.writeFile('/data/note', Buffer.from('shared'));
    const reader = create(['true'], { hostConfig: { Binds: ['/srv/data/:/elsewhere:ro'] } });
    expect(reader.filesystem.readFile('/elsewhere/note').toString()).toBe('shared');
  });
});
