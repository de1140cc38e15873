/**
 * The real docker CLI's `info` against `shipshape serve --dialect docker`, pinned to API 1.24 and
 * 1.25: its container and image counts follow the objects as they come and go. The served reference
 * is this file's alone, so the counts move by exactly what the test did.
 */
import { describe, expect, it } from 'vitest';
import { CLI_API_VERSIONS, CLI_NAME, cliAgainst, dockerCliInstalled, servedForSuite } from './docker-cli-process.ts';

const COUNTS = '{{.Containers}} {{.ContainersRunning}} {{.ContainersPaused}} {{.ContainersStopped}} {{.Images}}';

describe.skipIf(!dockerCliInstalled)(`${CLI_NAME} info against shipshape serve --dialect docker`, { timeout: 30_000 }, () => {
  const served = servedForSuite('shipshape-docker-cli-info-');

  describe.each(CLI_API_VERSIONS)('DOCKER_API_VERSION=%s', (version) => {
    const named = (name: string) => `cli${version.replace('.', '')}-${name}`;
    const { dockerOk } = cliAgainst(served, version);
    const counts = async () => {
      const [containers = NaN, running = NaN, paused = NaN, stopped = NaN, images = NaN] = (await dockerOk(['info', '--format', COUNTS])).trim().split(' ').map(Number);
      return { containers, running, paused, stopped, images };
    };

    it('info counts containers by state and images as they are made, paused, committed and removed', async () => {
      const before = await counts();
      await dockerOk(['run', '-d', '--name', named('running'), 'busybox', 'sleep', '300']);
      await dockerOk(['run', '-d', '--name', named('paused'), 'busybox', 'sleep', '300']);
      await dockerOk(['pause', named('paused')]);
      await dockerOk(['create', '--name', named('created'), 'busybox', 'true']);
      await dockerOk(['commit', named('created'), named('image')]);
      expect(await counts()).toEqual({
        containers: before.containers + 3,
        running: before.running + 1,
        paused: before.paused + 1,
        stopped: before.stopped + 1,
        images: before.images + 1,
      });
      await dockerOk(['rm', '-f', named('running'), named('paused'), named('created')]);
      await dockerOk(['rmi', named('image')]);
      expect(await counts()).toEqual(before);
    });
  });
});
