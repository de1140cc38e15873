/**
 * The real docker CLI's volume commands against `shipshape serve --dialect docker`, pinned to API 1.24
 * and 1.25: volume create, ls (with filters), inspect and rm, and containers that mount volumes with
 * `run -v`. Each is asserted on what it did.
 */
import { describe, expect, it } from 'vitest';
import { atLeast } from '../../protocol/versions.ts';
import { CLI_API_VERSIONS, CLI_NAME, cliAgainst, dockerCliInstalled, servedForSuite } from './docker-cli-process.ts';

describe.skipIf(!dockerCliInstalled)(`${CLI_NAME} volume commands against shipshape serve --dialect docker`, { timeout: 30_000 }, () => {
  const served = servedForSuite('shipshape-docker-cli-volumes-');

  describe.each(CLI_API_VERSIONS)('DOCKER_API_VERSION=%s', (version) => {
    /** Volume names are global to the one server: each version names its own. */
    const named = (name: string) => `cli${version.replace('.', '')}-${name}`;
    const { docker, dockerOk } = cliAgainst(served, version);
    const volumeNames = async (...filters: string[]) => (await dockerOk(['volume', 'ls', '-q', ...filters.flatMap((filter) => ['--filter', filter])])).split('\n').filter(Boolean).sort();

    it('volume create, ls and inspect show the volume: its name, the local driver, its labels from 1.25', async () => {
      const name = named('made');
      expect(await dockerOk(['volume', 'create', '--label', 'purpose=cli', name])).toBe(`${name}\n`);
      expect(await dockerOk(['volume', 'ls', '--filter', `name=${name}`, '--format', '{{.Driver}} {{.Name}}'])).toBe(`local ${name}\n`);
      const inspected = (await dockerOk(['volume', 'inspect', '--format', '{{.Name}} {{.Driver}} {{.Mountpoint}} {{.Labels}}', name])).trim();
      const labels = atLeast(version, '1.25') ? 'map[purpose:cli]' : 'map[]';
      expect(inspected).toBe(`${name} local /var/lib/docker/volumes/${name}/_data ${labels}`);
      await dockerOk(['volume', 'rm', name]);
    });

    it('volume ls filters by name, by dangling, and by label', async () => {
      const used = named('used');
      const free = named('free');
      await dockerOk(['volume', 'create', '--label', `mark=${named('mark')}`, used]);
      await dockerOk(['volume', 'create', free]);
      await dockerOk(['create', '--name', named('user'), '-v', `${used}:/data`, 'busybox', 'true']);
      expect(await volumeNames(`name=${named('')}`)).toEqual(expect.arrayContaining([free, used]));
      expect((await volumeNames('dangling=true')).filter((name) => name === used || name === free)).toEqual([free]);
      expect((await volumeNames('dangling=false')).filter((name) => name === used || name === free)).toEqual([used]);
      expect(await volumeNames(`label=mark=${named('mark')}`)).toEqual([used]);
      await dockerOk(['rm', named('user')]);
      await dockerOk(['volume', 'rm', used, free]);
    });

    it('run -v shares a named volume between containers; volume rm is refused while a container uses it', async () => {
      const name = named('shared');
      await dockerOk(['run', '--rm', '-v', `${name}:/data`, 'busybox', 'sh', '-c', 'echo kept > /data/note']);
      expect(await dockerOk(['run', '--rm', '-v', `${name}:/elsewhere:ro`, 'busybox', 'cat', '/elsewhere/note'])).toBe('kept\n');
      await dockerOk(['create', '--name', named('holder'), '-v', `${name}:/data`, 'busybox', 'true']);
      const refused = await docker(['volume', 'rm', name]);
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringMatching(/volume is in use/)]);
      await dockerOk(['rm', named('holder')]);
      await dockerOk(['volume', 'rm', name]);
      const gone = await docker(['volume', 'inspect', name]);
      expect([gone.code, gone.stderr]).toEqual([1, expect.stringMatching(/no such volume/i)]);
    });

    it('run --rm -v /path takes its anonymous volume with the container; rm -v does too', async () => {
      const before = await volumeNames();
      await dockerOk(['run', '--rm', '-v', '/anonymous', 'busybox', 'true']);
      await dockerOk(['create', '--name', named('anon'), '-v', '/anonymous', 'busybox', 'true']);
      expect((await volumeNames()).length).toBe(before.length + 1);
      await dockerOk(['rm', '-v', named('anon')]);
      expect(await volumeNames()).toEqual(before);
    });
  });
});
