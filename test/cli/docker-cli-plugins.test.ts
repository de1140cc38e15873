/**
 * The real docker CLI's plugin commands against `shipshape serve --dialect docker`, pinned to API 1.25
 * (the CLI's plugin commands need it): `plugin ls` lists a plugin pulled through the API, then enable,
 * inspect, rm (refused while enabled), disable and rm, each asserted on what it did; `plugin create`
 * from a directory of config.json and rootfs/; `plugin install` (privileges, pull, enable by the
 * Docker-Plugin-Name the pull answers with: the CLI reads the pull's answer as dockerd 20.10's
 * progress stream, which the reference gives Docker's Go clients).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../harness/client/dispatcher.ts';
import { EngineClient } from '../../harness/client/engine-client.ts';
import { connectionOf } from '../../harness/run/prepare-target.ts';
import { CLI_NAME, cliAgainst, dockerCliInstalled, servedForSuite } from './docker-cli-process.ts';

describe.skipIf(!dockerCliInstalled)(`${CLI_NAME} plugin commands against shipshape serve --dialect docker`, { timeout: 30_000 }, () => {
  const served = servedForSuite('shipshape-docker-cli-plugins-');
  const { docker, dockerOk } = cliAgainst(served, '1.25');
  let engine: EngineClient;
  let closeClient: () => Promise<void>;

  beforeAll(() => {
    const connection = connectionOf(served.server().url);
    const dispatcher = createDispatcher(connection);
    engine = new EngineClient(connection, dispatcher, '1.25');
    closeClient = () => dispatcher.close();
  });
  afterAll(() => closeClient());

  const listed = async () => dockerOk(['plugin', 'ls', '--format', '{{.ID}} {{.Name}} {{.Description}} {{.Enabled}}']);

  /** Pulls the catalogue's vieux/sshfs through the API, under its own name; returns its id. */
  async function pulled(): Promise<string> {
    const pull = await engine.post('/plugins/pull', { query: { name: 'vieux/sshfs' } });
    expect(pull.status, pull.describe()).toBe(200);
    return (await engine.get('/plugins/vieux/sshfs/json')).json<{ Id: string }>().Id;
  }

  it('plugin ls lists a plugin pulled through the API: short id, name, description, disabled', async () => {
    const id = await pulled();
    expect(await listed()).toBe(`${id.slice(0, 12)} vieux/sshfs sshFS plugin for Docker false\n`);
    expect(await dockerOk(['plugin', 'ls', '-q'])).toBe(`${id.slice(0, 12)}\n`);
    expect((await engine.delete('/plugins/vieux/sshfs')).status).toBe(200);
  });

  it('plugin enable, inspect, rm refused while enabled, disable and rm', async () => {
    await pulled();
    expect(await dockerOk(['plugin', 'enable', 'vieux/sshfs'])).toBe('vieux/sshfs\n');
    expect(await listed()).toMatch(/ vieux\/sshfs sshFS plugin for Docker true\n$/);
    const inspected = await dockerOk(['plugin', 'inspect', '--format', '{{.Enabled}} {{.PluginReference}} {{index .Config.Interface.Types 0}} {{.Settings.Env}}', 'vieux/sshfs:latest']);
    expect(inspected).toBe('true docker.io/vieux/sshfs:latest docker.volumedriver/1.0 [DEBUG=0]\n');
    const refused = await docker(['plugin', 'rm', 'vieux/sshfs']);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringMatching(/plugin vieux\/sshfs:latest is enabled/)]);
    expect(await dockerOk(['plugin', 'disable', 'vieux/sshfs'])).toBe('vieux/sshfs\n');
    expect(await listed()).toMatch(/ vieux\/sshfs sshFS plugin for Docker false\n$/);
    expect(await dockerOk(['plugin', 'rm', 'vieux/sshfs'])).toBe('vieux/sshfs\n');
    expect(await dockerOk(['plugin', 'ls', '-q'])).toBe('');
  });

  it('plugin install --grant-all-permissions pulls the plugin and enables it', async () => {
    const output = await dockerOk(['plugin', 'install', '--grant-all-permissions', 'vieux/sshfs']);
    expect(output).toMatch(/Installed plugin vieux\/sshfs\n$/);
    expect(await listed()).toMatch(/^[0-9a-f]{12} vieux\/sshfs sshFS plugin for Docker true\n$/);
    expect(await dockerOk(['plugin', 'rm', '--force', 'vieux/sshfs'])).toBe('vieux/sshfs\n');
  });

  it('plugin create installs a plugin from a directory of config.json and rootfs/, disabled, with that config', async () => {
    const context = await mkdtemp(join(tmpdir(), 'shipshape-plugin-context-'));
    try {
      await mkdir(join(context, 'rootfs'));
      await writeFile(join(context, 'rootfs', 'plugin'), '#!/bin/sh\n');
      const config = { Description: 'made by the CLI test', Interface: { Types: ['docker.volumedriver/1.0'], Socket: 'made.sock' }, Entrypoint: ['/plugin'], Network: { Type: 'host' } };
      await writeFile(join(context, 'config.json'), JSON.stringify(config));
      expect(await dockerOk(['plugin', 'create', 'local/made', context])).toBe('local/made\n');
      expect(await listed()).toMatch(/^[0-9a-f]{12} local\/made made by the CLI test false\n$/);
      const inspected = await dockerOk(['plugin', 'inspect', '--format', '{{.Enabled}} {{index .Config.Entrypoint 0}} {{.Config.Interface.Socket}}', 'local/made']);
      expect(inspected).toBe('false /plugin made.sock\n');
      expect(await dockerOk(['plugin', 'rm', 'local/made'])).toBe('local/made\n');
    } finally {
      await rm(context, { recursive: true, force: true });
    }
  });
});
