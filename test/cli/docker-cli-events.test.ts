/**
 * The real docker CLI's `events` against `shipshape serve --dialect docker`, pinned to API 1.24 and
 * 1.25: a closed window (`--since … --until …`) with filters prints the events it holds and ends; a
 * stream left running prints a container's events as they happen.
 */
import { describe, expect, it } from 'vitest';
import { until } from '../../harness/wait-until.ts';
import { CLI_API_VERSIONS, CLI_NAME, cliAgainst, dockerCliInstalled, servedForSuite } from './docker-cli-process.ts';

const FORMAT = '{{.Type}} {{.Action}} {{.Actor.Attributes.name}}';

/** The server runs on this machine's clock: whole Unix seconds. */
function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

describe.skipIf(!dockerCliInstalled)(`${CLI_NAME} events against shipshape serve --dialect docker`, { timeout: 30_000 }, () => {
  const served = servedForSuite('shipshape-docker-cli-events-');

  describe.each(CLI_API_VERSIONS)('DOCKER_API_VERSION=%s', (version) => {
    const named = (name: string) => `cli${version.replace('.', '')}-${name}`;
    const { docker, dockerOk, dockerStarted } = cliAgainst(served, version);

    it('events --since --until with container and event filters prints that window\'s matching events and ends', async () => {
      const since = nowSeconds();
      await dockerOk(['run', '--name', named('window'), 'busybox', 'true']);
      await dockerOk(['create', '--name', named('other'), 'busybox', 'true']);
      await dockerOk(['rm', named('window'), named('other')]);
      // until counts whole seconds: a window that ends after the second of the last event holds them all.
      const last = nowSeconds();
      const past = await until(async () => nowSeconds(), (seconds) => seconds > last, { what: 'the clock to leave the second of the last event' });
      const window = ['events', '--since', String(since), '--until', String(past), '--format', FORMAT];
      const printed = await dockerOk([...window, '--filter', `container=${named('window')}`, '--filter', 'event=start', '--filter', 'event=destroy']);
      expect(printed.trim().split('\n')).toEqual([`container start ${named('window')}`, `container destroy ${named('window')}`]);
      const byType = await dockerOk([...window, '--filter', 'type=container', '--filter', `container=${named('other')}`]);
      expect(byType.trim().split('\n')).toEqual([`container create ${named('other')}`, `container destroy ${named('other')}`]);
    });

    it('events left running prints a container\'s events as they happen, through its die with the exit code', async () => {
      const name = named('live');
      const stream = dockerStarted(['events', '--filter', `container=${name}`, '--format', `${FORMAT} {{index .Actor.Attributes "exitCode"}}`], 20_000);
      try {
        // The stream is up once the CLI has subscribed; a container made after that shows in it.
        await until(async () => (await dockerOk(['info', '--format', '{{.NEventsListener}}'])).trim(), (listeners) => Number(listeners) > 0, { what: 'the events subscription' });
        expect((await docker(['run', '--rm', '--name', name, 'busybox', 'sh', '-c', 'exit 3'])).code, 'docker run --rm … exit 3').toBe(3);
        const lines = await until(async () => stream.stdout().split('\n').filter(Boolean), (printed) => printed.includes(`container destroy ${name} `), { what: `the destroy event of ${name}` });
        expect(lines).toEqual([`container create ${name} `, `container attach ${name} `, `container start ${name} `, `container die ${name} 3`, `container destroy ${name} `]);
      } finally {
        stream.stop();
        await stream.done;
      }
    });
  });
});
