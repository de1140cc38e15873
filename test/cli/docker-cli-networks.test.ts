/**
 * The real docker CLI's network commands against `shipshape serve --dialect docker`, pinned to API 1.24
 * and 1.25: network create (with an IPAM pool and a label), ls with filters, inspect, connect with a
 * static address, disconnect and rm, and `run --network`. Each is asserted on what it did.
 */
import { describe, expect, it } from 'vitest';
import { atLeast } from '../../protocol/versions.ts';
import { CLI_API_VERSIONS, CLI_NAME, cliAgainst, dockerCliInstalled, servedForSuite } from './docker-cli-process.ts';

describe.skipIf(!dockerCliInstalled)(`${CLI_NAME} network commands against shipshape serve --dialect docker`, { timeout: 30_000 }, () => {
  const served = servedForSuite('shipshape-docker-cli-networks-');

  describe.each(CLI_API_VERSIONS.map((version, index) => [version, index] as const))('DOCKER_API_VERSION=%s', (version, index) => {
    /** Networks and their subnets are global to the one server: each version has its own. */
    const named = (name: string) => `cli${version.replace('.', '')}-${name}`;
    const subnet = (third: number) => `10.213.${10 * index + third}`;
    const { docker, dockerOk } = cliAgainst(served, version);
    const networkNames = async (...filters: string[]) =>
      (await dockerOk(['network', 'ls', '--format', '{{.Name}}', ...filters.flatMap((filter) => ['--filter', filter])])).split('\n').filter(Boolean).sort();

    it('network create, ls and inspect show the network: driver, IPAM pool, and its labels from 1.25', async () => {
      const name = named('made');
      const id = (await dockerOk(['network', 'create', '--label', 'purpose=cli', '--subnet', `${subnet(1)}.0/24`, '--ip-range', `${subnet(1)}.128/25`, '--gateway', `${subnet(1)}.1`, name])).trim();
      expect(id).toMatch(/^[0-9a-f]{64}$/);
      expect(await dockerOk(['network', 'ls', '--filter', `name=${name}`, '--format', '{{.ID}} {{.Driver}} {{.Scope}}'])).toBe(`${id.slice(0, 12)} bridge local\n`);
      const pool = (await dockerOk(['network', 'inspect', '--format', '{{range .IPAM.Config}}{{.Subnet}} {{.IPRange}} {{.Gateway}}{{end}}', name])).trim();
      expect(pool).toBe(`${subnet(1)}.0/24 ${subnet(1)}.128/25 ${subnet(1)}.1`);
      const labels = (await dockerOk(['network', 'inspect', '--format', '{{json .Labels}}', name])).trim();
      expect(labels).toBe(atLeast(version, '1.25') ? '{"purpose":"cli"}' : 'null');
      await dockerOk(['network', 'rm', name]);
      expect(await networkNames(`name=${name}`)).toEqual([]);
    });

    it('network ls filters by label, driver and type', async () => {
      const mine = named('mine');
      await dockerOk(['network', 'create', '--label', `mark=${named('mark')}`, mine]);
      expect(await networkNames(`label=mark=${named('mark')}`)).toEqual([mine]);
      expect(await networkNames('driver=null')).toEqual(['none']);
      expect(await networkNames('type=builtin')).toEqual(['bridge', 'host', 'none']);
      expect(await networkNames('type=custom')).toContain(mine);
      await dockerOk(['network', 'rm', mine]);
    });

    it('network connect --ip and disconnect show on both sides; rm is refused while a container is on the network', async () => {
      const name = named('joined');
      const container = named('app');
      await dockerOk(['network', 'create', '--subnet', `${subnet(2)}.0/24`, name]);
      await dockerOk(['run', '-d', '--name', container, 'busybox', 'sleep', '300']);
      await dockerOk(['network', 'connect', '--ip', `${subnet(2)}.50`, name, container]);
      expect((await dockerOk(['inspect', '--format', `{{(index .NetworkSettings.Networks "${name}").IPAddress}}`, container])).trim()).toBe(`${subnet(2)}.50`);
      expect((await dockerOk(['network', 'inspect', '--format', '{{range .Containers}}{{.Name}} {{.IPv4Address}}{{end}}', name])).trim()).toBe(`${container} ${subnet(2)}.50/24`);
      const refused = await docker(['network', 'rm', name]);
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringMatching(/has active endpoints/)]);
      await dockerOk(['network', 'disconnect', name, container]);
      expect((await dockerOk(['network', 'inspect', '--format', '{{len .Containers}}', name])).trim()).toBe('0');
      await dockerOk(['rm', '-f', container]);
      await dockerOk(['network', 'rm', name]);
    });

    it('run --network puts the container on that network only', async () => {
      const name = named('mode');
      await dockerOk(['network', 'create', '--subnet', `${subnet(3)}.0/24`, name]);
      expect(await dockerOk(['run', '--rm', '--network', name, 'busybox', 'echo', 'ran'])).toBe('ran\n');
      const container = named('moded');
      await dockerOk(['run', '-d', '--name', container, '--network', name, 'busybox', 'sleep', '300']);
      expect((await dockerOk(['inspect', '--format', '{{range $name, $settings := .NetworkSettings.Networks}}{{$name}} {{$settings.IPAddress}}{{end}}', container])).trim()).toBe(`${name} ${subnet(3)}.2`);
      await dockerOk(['rm', '-f', container]);
      await dockerOk(['network', 'rm', name]);
    });
  });
});
