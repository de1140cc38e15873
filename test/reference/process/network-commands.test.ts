/** nslookup and ping against a network view the test gives: what resolves, what answers, what busybox prints. */
import { describe, expect, test } from 'vitest';
import type { NetworkView } from '../../../reference/engine/process/program.ts';
import { busyboxFilesystem, run } from './run-process.ts';

/** A user-defined network's view: the embedded DNS knows `upstream`; 10.0.0.2 answers pings. */
const NETWORK: NetworkView = {
  askDns: (server, name) => (server !== '127.0.0.11' ? { kind: 'unreachable' } : name === 'upstream' ? { kind: 'address', address: '10.0.0.2' } : { kind: 'no-such-name' }),
  answersPing: (address) => address === '10.0.0.2' || address.startsWith('127.'),
};

function containerFs(resolvConf: string, hosts = '127.0.0.1\tlocalhost\n') {
  const fs = busyboxFilesystem();
  fs.mkdir('/etc', { parents: true });
  fs.writeFile('/etc/resolv.conf', Buffer.from(resolvConf));
  fs.writeFile('/etc/hosts', Buffer.from(hosts));
  return fs;
}

const ON_USER_NETWORK = 'nameserver 127.0.0.11\noptions ndots:0\n';

describe('nslookup', () => {
  test('a name the nameserver knows: its address, then the empty answer to the AAAA query, exit 0', async () => {
    const result = await run(['nslookup', 'upstream'], { fs: containerFs(ON_USER_NETWORK), network: NETWORK });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'Server:\t\t127.0.0.11\nAddress:\t127.0.0.11:53\n\nNon-authoritative answer:\nName:\tupstream\nAddress: 10.0.0.2\n\nNon-authoritative answer:\n\n' });
  });

  test('an unknown name is NXDOMAIN, exit 1; /etc/hosts is not read', async () => {
    const result = await run(['nslookup', 'listed'], { fs: containerFs(ON_USER_NETWORK, '10.9.9.9\tlisted\n'), network: NETWORK });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain("** server can't find listed: NXDOMAIN");
  });

  test('a nameserver that does not answer: timed out, exit 1', async () => {
    const result = await run(['nslookup', 'upstream'], { fs: containerFs('nameserver 8.8.8.8\n'), network: NETWORK });
    expect(result).toMatchObject({ exitCode: 1, stdout: ';; connection timed out; no servers could be reached\n\n' });
  });
});

describe('ping', () => {
  test('a name from the nameserver that answers: one reply and the summary, exit 0', async () => {
    const result = await run(['ping', '-c1', 'upstream'], { fs: containerFs(ON_USER_NETWORK), network: NETWORK });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^PING upstream \(10\.0\.0\.2\): 56 data bytes\n64 bytes from 10\.0\.0\.2: seq=0 ttl=64 time=[\d.]+ ms\n\n--- upstream ping statistics ---\n1 packets transmitted, 1 packets received, 0% packet loss\n/);
  });

  test('/etc/hosts comes before the nameserver', async () => {
    const result = await run(['ping', '-c1', '-W', '1', 'upstream'], { fs: containerFs(ON_USER_NETWORK, '10.7.7.7\tupstream\n'), network: NETWORK, maxMs: 5_000 });
    expect(result.stdout).toContain('PING upstream (10.7.7.7)');
    expect(result.exitCode).toBe(1);
  });

  test('an address nothing answers: no reply after -W, 100% loss, exit 1', async () => {
    const result = await run(['ping', '-c1', '-W', '2', '10.5.5.5'], { fs: containerFs(ON_USER_NETWORK), network: NETWORK, maxMs: 5_000 });
    expect(result).toMatchObject({ exitCode: 1, stdout: 'PING 10.5.5.5 (10.5.5.5): 56 data bytes\n\n--- 10.5.5.5 ping statistics ---\n1 packets transmitted, 0 packets received, 100% packet loss\n' });
  });

  test('a name nothing resolves: bad address, exit 1', async () => {
    const result = await run(['ping', '-c1', 'nowhere'], { fs: containerFs(ON_USER_NETWORK), network: NETWORK });
    expect(result).toMatchObject({ exitCode: 1, stdout: '', stderr: "ping: bad address 'nowhere'\n" });
  });

  test('without a network view, only loopback answers', async () => {
    const result = await run(['ping', '-c2', '127.0.0.1'], { fs: containerFs(ON_USER_NETWORK), maxMs: 5_000 });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('2 packets transmitted, 2 packets received, 0% packet loss');
  });
});
