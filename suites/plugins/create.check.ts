/**
 * POST /plugins/create (Docker's, API 1.25; the spec's plugin rows list no create): a plugin made from
 * a context of config.json and rootfs/. dockerd decodes config.json as Go does, matching field names
 * in any case, so a config written in lower case (as docker-py's own test plugin is) is a plugin
 * with its interface types.
 */
import { check } from '../../harness/check.ts';
import { buildTar } from '../tar-files.ts';
import { uniquePluginName, type PluginView } from './plugin-steps.ts';

check('plugins.create.config-any-case', {
  title: 'POST /plugins/create from a context whose config.json spells its field names in lower case makes the plugin, with the interface types it names',
  spec: '2 §2.6',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['state'],
}, async (context) => {
  const { engine, expect, make } = context;
  const name = `${uniquePluginName(context)}:latest`;
  const config = { description: 'a plugin of a shipshape check', entrypoint: ['/plugin'], network: { type: 'host' }, interface: { types: ['docker.volumedriver/1.0'], socket: 'shipshape.sock' } };
  const build = await buildTar([
    { kind: 'file', name: 'config.json', data: JSON.stringify(config) },
    { kind: 'directory', name: 'rootfs' },
    { kind: 'file', name: 'rootfs/plugin', data: '#!/bin/sh\n' },
  ]);
  const created = await engine.post('/plugins/create', { query: { name }, body: build, headers: { 'content-type': 'application/x-tar' } });
  expect(created.status, `POST /plugins/create?name=${name}: ${created.describe()}`).toBe(204);
  make.plugin(name);
  const inspected = await engine.get(`/plugins/${name}/json`);
  expect(inspected.status, `GET /plugins/${name}/json: ${inspected.describe()}`).toBe(200);
  expect(inspected.json<PluginView & { Config: { Interface: { Types: string[] } } }>().Config.Interface.Types, 'Config.Interface.Types').toEqual(['docker.volumedriver/1.0']);
});
