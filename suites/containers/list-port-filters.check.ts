/**
 * The container list's `expose` and `publish` filters, which dockerd 20.10 takes at every version
 * though spec/1 §4.1 does not name them: a port (`80`, tcp when no protocol is given, or `80/tcp`) or
 * a range (`79-81`) lists the running containers whose ports (the list's Ports) have it as their
 * private port (expose) or as the public port they are published on (publish). Each check judges its
 * own containers only.
 */
import { check } from '../../harness/check.ts';
import { startedContainer } from '../container-steps.ts';

interface ListedPort {
  PrivatePort: number;
  PublicPort?: number;
  Type: string;
}

check('containers.list.filter-expose-publish', {
  title: 'expose lists the own running container by its private port 80 (port, range, port/protocol), publish by the public port it got, and neither the container without ports',
  spec: '1 §4.1',
  // §4.1 types filters as a JSON map; these two filters, and what they match, are dockerd's.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const { engine } = context;
  const ports = await startedContainer(context, { Cmd: ['sleep', '300'], ExposedPorts: { '80/tcp': {} }, HostConfig: { PortBindings: { '80/tcp': [{ HostPort: '' }] } } });
  const plain = await startedContainer(context, { Cmd: ['sleep', '300'] });
  const roleOf = new Map([[ports, 'ports'], [plain, 'plain']]);
  const listed = async (filters: Record<string, string[]>): Promise<string[]> => {
    const res = await engine.get('/containers/json', { query: { all: '1', ...(Object.keys(filters).length > 0 && { filters: JSON.stringify(filters) }) } });
    context.expect(res.status, `GET /containers/json?filters=${JSON.stringify(filters)}: ${res.describe()}`).toBe(200);
    return res.json<{ Id: string }[]>().flatMap((item) => roleOf.get(item.Id) ?? []);
  };
  const own = (await engine.get('/containers/json', { query: { all: '1' } })).json<{ Id: string; Ports: ListedPort[] }[]>().find((item) => item.Id === ports);
  const publicPort = own?.Ports.find((port) => port.PrivatePort === 80 && port.PublicPort)?.PublicPort;
  context.expect(publicPort, `the public port of 80/tcp in the list's Ports: ${JSON.stringify(own?.Ports)}`).toBeGreaterThan(0);
  const seen = {
    'expose 80': await listed({ expose: ['80'] }),
    'expose 79-81/tcp': await listed({ expose: ['79-81/tcp'] }),
    'expose 80/udp': await listed({ expose: ['80/udp'] }),
    'publish <public port>': await listed({ publish: [String(publicPort)] }),
    'publish <public port>/udp': await listed({ publish: [`${publicPort}/udp`] }),
  };
  context.expect(seen, 'own containers listed per filter').toEqual({ 'expose 80': ['ports'], 'expose 79-81/tcp': ['ports'], 'expose 80/udp': [], 'publish <public port>': ['ports'], 'publish <public port>/udp': [] });
});
