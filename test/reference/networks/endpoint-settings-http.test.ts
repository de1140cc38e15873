/**
 * Endpoint settings over a real server, as dockerd 20.10 keeps them: a create's NetworkingConfig
 * (IPv4, IPv6 and link-local addresses, Aliases, Links) read from 1.22 (spec/1 §9.4: static addresses
 * at create) and used when the container starts; a pool's AuxiliaryAddresses kept and handed to no
 * container; a connect's MacAddress shown until the container joins.
 */
import { describe, expect, test } from 'vitest';
import { ManualScheduler } from '../../../reference/engine/process/index.ts';
import { referencePerFile } from '../images/reference-per-file.ts';

const call = referencePerFile({ scheduler: new ManualScheduler() });

interface Endpoint {
  IPAMConfig: unknown;
  Aliases: string[] | null;
  Links: string[] | null;
  IPAddress: string;
  GlobalIPv6Address: string;
  MacAddress: string;
}

async function endpointOf(container: string, network: string, version = '/v1.25'): Promise<Endpoint | undefined> {
  const res = await call('GET', `${version}/containers/${container}/json`);
  return res.json<{ NetworkSettings: { Networks: Record<string, Endpoint> } }>().NetworkSettings.Networks[network];
}

async function network(body: Record<string, unknown>): Promise<void> {
  expect((await call('POST', '/v1.25/networks/create', { json: body })).status).toBe(201);
}

async function createdOn(name: string, networkName: string, endpoint: Record<string, unknown>, version: string): Promise<void> {
  const body = { Image: 'busybox', Cmd: ['sleep', '300'], HostConfig: { NetworkMode: networkName }, NetworkingConfig: { EndpointsConfig: { [networkName]: endpoint } } };
  const res = await call('POST', `${version}/containers/create?name=${name}`, { json: body });
  expect(res.status, res.text).toBe(201);
}

describe('the endpoint settings of a create', () => {
  test('from 1.22 the addresses, aliases and links given are kept, and the container runs at the addresses', async () => {
    await network({ Name: 'n6', EnableIPv6: true, IPAM: { Config: [{ Subnet: '10.231.5.0/24' }, { Subnet: 'fd00:5::/64' }] } });
    const ipam = { IPv4Address: '10.231.5.22', IPv6Address: 'fd00:5::22', LinkLocalIPs: ['169.254.8.22'] };
    await createdOn('c22', 'n6', { IPAMConfig: ipam, Aliases: ['db'], Links: ['peer:upstream'] }, '/v1.22');
    expect(await endpointOf('c22', 'n6')).toMatchObject({ IPAMConfig: ipam, Aliases: ['db'], Links: ['peer:upstream'], IPAddress: '' });
    expect((await call('POST', '/v1.22/containers/c22/start')).status).toBe(204);
    const started = await endpointOf('c22', 'n6');
    expect([started?.IPAddress, started?.GlobalIPv6Address, started?.Aliases?.[0]]).toEqual(['10.231.5.22', 'fd00:5::22', 'db']);
  });

  test('before 1.22 NetworkingConfig is not read: the container takes the next free address', async () => {
    await network({ Name: 'n4', IPAM: { Config: [{ Subnet: '10.231.4.0/24' }] } });
    await createdOn('c21', 'n4', { IPAMConfig: { IPv4Address: '10.231.4.77' } }, '/v1.21');
    expect((await call('POST', '/v1.21/containers/c21/start')).status).toBe(204);
    expect((await endpointOf('c21', 'n4'))?.IPAddress).toBe('10.231.4.2');
  });
});

describe('auxiliary addresses', () => {
  test('are kept in the network\'s IPAM config; no container gets one, dynamically or by request (403)', async () => {
    await network({ Name: 'aux', IPAM: { Config: [{ Subnet: '10.231.6.0/24', Gateway: '10.231.6.1', AuxiliaryAddresses: { reserved: '10.231.6.2' } }] } });
    const inspected = await call('GET', '/v1.25/networks/aux');
    expect(inspected.json<{ IPAM: { Config: unknown[] } }>().IPAM.Config).toEqual([{ Subnet: '10.231.6.0/24', Gateway: '10.231.6.1', AuxiliaryAddresses: { reserved: '10.231.6.2' } }]);
    await createdOn('dynamic', 'aux', {}, '/v1.25');
    expect((await call('POST', '/v1.25/containers/dynamic/start')).status).toBe(204);
    expect((await endpointOf('dynamic', 'aux'))?.IPAddress).toBe('10.231.6.3');
    await createdOn('asks', 'aux', { IPAMConfig: { IPv4Address: '10.231.6.2' } }, '/v1.25');
    const refused = await call('POST', '/v1.25/containers/asks/start');
    expect([refused.status, refused.json()]).toEqual([403, { message: 'Address already in use' }]);
  });

  test('outside the pool\'s subnet are refused at create', async () => {
    const res = await call('POST', '/v1.25/networks/create', { json: { Name: 'bad', IPAM: { Config: [{ Subnet: '10.231.7.0/24', AuxiliaryAddresses: { far: '10.9.9.9' } }] } } });
    expect([res.status, res.json()]).toEqual([403, { message: 'auxiliary address: (far:10.9.9.9) must belong to the master pool: 10.231.7.0/24' }]);
  });
});

describe('the MacAddress of a connect', () => {
  test('shows while the container is not running, and gives way to the endpoint\'s own when it joins', async () => {
    await network({ Name: 'm', IPAM: { Config: [{ Subnet: '10.231.8.0/24' }] } });
    expect((await call('POST', '/v1.25/containers/create?name=mac', { json: { Image: 'busybox', Cmd: ['sleep', '300'] } })).status).toBe(201);
    expect((await call('POST', '/v1.25/networks/m/connect', { json: { Container: 'mac', EndpointConfig: { MacAddress: '02:42:0a:0b:0c:0d' } } })).status).toBe(200);
    expect((await endpointOf('mac', 'm'))?.MacAddress).toBe('02:42:0a:0b:0c:0d');
    expect((await call('POST', '/v1.25/containers/mac/start')).status).toBe(204);
    expect((await endpointOf('mac', 'm'))?.MacAddress).toBe('02:42:0a:e7:08:02');
  });
});

describe('the endpoint settings of the default network', () => {
  test('settings given for `default` (as CLIs newer than 20.10 send them below 1.44) are the bridge network\'s, and the container runs', async () => {
    const body = { Image: 'busybox', Cmd: ['sleep', '300'], HostConfig: { NetworkMode: 'default' }, NetworkingConfig: { EndpointsConfig: { default: {} } } };
    expect((await call('POST', '/v1.25/containers/create?name=dflt', { json: body })).status).toBe(201);
    expect((await call('POST', '/v1.25/containers/dflt/start')).status).toBe(204);
    const networks = (await call('GET', '/v1.25/containers/dflt/json')).json<{ NetworkSettings: { Networks: Record<string, Endpoint> } }>().NetworkSettings.Networks;
    expect([Object.keys(networks), networks.bridge?.IPAddress]).toEqual([['bridge'], '172.17.0.2']);
  });
});
