/**
 * What the reference reports about the machine it runs on: real values read from Node, once per
 * process (they do not change while it runs, and requests must not pay for them).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface HostFacts {
  hostname: string;
  ncpu: number;
  memTotal: number;
  kernelVersion: string;
  /** `uname -m` style, as the engine's info Architecture: x86_64, aarch64 */
  machine: string;
  /** Go's GOARCH names, as the engine's version Arch and image Architecture: amd64, arm64 */
  goArch: string;
  /** the distribution's PRETTY_NAME when there is one */
  operatingSystem: string;
  /** the engine's daemon id form: twelve groups of four base32 characters, stable for this host */
  daemonId: string;
}

const GO_ARCH: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64' };

let cached: HostFacts | undefined;

export function hostFacts(): HostFacts {
  cached ??= readHostFacts();
  return cached;
}

function readHostFacts(): HostFacts {
  const hostname = os.hostname();
  return {
    hostname,
    ncpu: os.cpus().length,
    memTotal: os.totalmem(),
    kernelVersion: os.release(),
    machine: os.machine(),
    goArch: GO_ARCH[process.arch] ?? process.arch,
    operatingSystem: prettyName() ?? `${os.type()} ${os.release()}`,
    daemonId: daemonIdFor(hostname),
  };
}

function prettyName(): string | undefined {
  try {
    const match = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'));
    return match?.[1];
  } catch {
    return undefined;
  }
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** The engine derives its id from a key fingerprint (30 bytes, base32); a digest of the hostname keeps ours stable per host. */
function daemonIdFor(hostname: string): string {
  const bytes = createHash('sha256').update(`shipshape-reference:${hostname}`).digest().subarray(0, 30);
  let bits = '';
  for (const byte of bytes) bits += byte.toString(2).padStart(8, '0');
  const chars = bits.match(/.{5}/g)?.map((group) => BASE32[parseInt(group, 2)]).join('') ?? '';
  return chars.match(/.{4}/g)?.join(':') ?? chars;
}
