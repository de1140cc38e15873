/** The network files a start mounts over the init layer's empty ones: /etc/hostname, /etc/hosts, /etc/resolv.conf. */
import { describe, expect, test } from 'vitest';
import { manualEngine } from './manual-engine.ts';

const read = (container: { filesystem: { readFile(path: string): Buffer } }, path: string) => container.filesystem.readFile(path).toString('utf8');

describe('network files', () => {
  test('are empty files of the init layer until the first start, and no change of the container\'s', () => {
    const { create } = manualEngine();
    const box = create(['true']);
    expect(['/etc/hostname', '/etc/hosts', '/etc/resolv.conf'].map((path) => read(box, path))).toEqual(['', '', '']);
    expect(box.filesystem.changes()).toEqual([]);
  });

  test('hosts: localhost, extra hosts, links, then the own address with hostname.domainname and hostname', async () => {
    const { model, create, run, advance } = manualEngine();
    const db = run(['sleep', '300'], { name: 'db', config: { Hostname: 'dbhost' } });
    const app = create(['sleep', '300'], { name: 'app', config: { Hostname: 'app', Domainname: 'example.org' }, hostConfig: { ExtraHosts: ['extra:10.1.2.3'], Links: ['db:kid'] } });
    model.lifecycle.start(app);
    await advance(10);
    const lines = read(app, '/etc/hosts').split('\n');
    expect(lines.slice(0, 1)).toEqual(['127.0.0.1\tlocalhost']);
    expect(lines.slice(6)).toEqual(['10.1.2.3\textra', `${db.networks.bridge?.IPAddress}\tkid dbhost db`, `${app.networks.bridge?.IPAddress}\tapp.example.org app`, '']);
    expect(read(app, '/etc/hostname')).toBe('app\n');
    expect(app.filesystem.changes()).toEqual([]);
    model.lifecycle.shutdown();
  });

  test('resolv.conf: the daemon\'s without its localhost nameservers; Google\'s when none is left; Dns, DnsSearch and DnsOptions where given', () => {
    const daemon = manualEngine('# the host\nsearch corp.example\nnameserver 127.0.0.53\nnameserver 10.0.0.2\noptions edns0\n');
    expect(read(daemon.run(['sleep', '300']), '/etc/resolv.conf')).toBe('search corp.example\nnameserver 10.0.0.2\noptions edns0\n');
    const local = manualEngine('nameserver 127.0.0.53\n');
    expect(read(local.run(['sleep', '300']), '/etc/resolv.conf')).toBe('nameserver 8.8.8.8\nnameserver 8.8.4.4\n');
    const given = daemon.run(['sleep', '300'], { hostConfig: { Dns: ['9.9.9.9'], DnsOptions: ['rotate'] } });
    expect(read(given, '/etc/resolv.conf')).toBe('search corp.example\nnameserver 9.9.9.9\noptions rotate\n');
    for (const engine of [daemon, local]) engine.model.lifecycle.shutdown();
  });

  test('resolv.conf on a user-defined network: the embedded resolver, with ndots:0 after the daemon\'s options', () => {
    const { model, run } = manualEngine('nameserver 10.0.0.2\noptions edns0\n');
    model.networks.create({ name: 'mine' });
    expect(read(run(['sleep', '300'], { hostConfig: { NetworkMode: 'mine' } }), '/etc/resolv.conf')).toBe('nameserver 127.0.0.11\noptions edns0 ndots:0\n');
    model.lifecycle.shutdown();
  });

  test('a process may write them, even on a read-only rootfs; they are not the container\'s changes', () => {
    const { model, run } = manualEngine();
    const box = run(['sleep', '300'], { hostConfig: { ReadonlyRootfs: true } });
    box.filesystem.writeFile('/etc/hosts', '10.9.9.9\tmine\n', { append: true });
    expect(read(box, '/etc/hosts')).toMatch(/10\.9\.9\.9\tmine\n$/);
    expect(box.filesystem.changes()).toEqual([]);
    model.lifecycle.shutdown();
  });
});
