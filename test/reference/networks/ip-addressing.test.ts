/** Addresses and subnets as Go reads and writes them, and the allocator dockerd's IPAM is. */
import { describe, expect, test } from 'vitest';
import { formatIpAddress, parseIpAddress } from '../../../reference/engine/model/networks/ip-address.ts';
import { IpAddressAllocator } from '../../../reference/engine/model/networks/ip-address-allocator.ts';
import { IpSubnet } from '../../../reference/engine/model/networks/ip-subnet.ts';

const address = (text: string) => {
  const parsed = parseIpAddress(text);
  if (!parsed) throw new Error(`not an address: ${text}`);
  return parsed;
};
const subnet = (text: string) => {
  const parsed = IpSubnet.parse(text);
  if (!parsed) throw new Error(`not a subnet: ${text}`);
  return parsed;
};

describe('addresses', () => {
  test.each([
    ['10.213.7.1', '10.213.7.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['fd00:213:42::7', 'fd00:213:42::7'],
    ['FD00:0:0:0:0:0:0:1', 'fd00::1'],
    ['::', '::'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
    ['1:0:2:0:3:0:4:0', '1:0:2:0:3:0:4:0'],
    ['::ffff:10.0.0.1', '::ffff:a00:1'],
  ])('%s reads and is written as %s', (text, written) => {
    expect(formatIpAddress(address(text))).toBe(written);
  });

  test.each(['bogus', '10.0.0', '10.0.0.256', '10.0.0.01', '1::2::3', '1:2:3:4:5:6:7:8:9', '', '10.0.0.1/24'])('%j is not an address', (text) => {
    expect(parseIpAddress(text)).toBeUndefined();
  });
});

describe('subnets', () => {
  test('host bits are dropped from the range and kept in the text', () => {
    const block = subnet('10.213.43.5/24');
    expect([formatIpAddress({ family: 4, value: block.first }), formatIpAddress({ family: 4, value: block.last }), block.text]).toEqual([
      '10.213.43.0',
      '10.213.43.255',
      '10.213.43.5/24',
    ]);
  });

  test('contains and overlaps within a family only', () => {
    expect(subnet('10.213.0.0/16').overlaps(subnet('10.213.9.0/24'))).toBe(true);
    expect(subnet('10.213.8.0/24').overlaps(subnet('10.213.9.0/24'))).toBe(false);
    expect(subnet('fd00::/64').contains(address('fd00::9'))).toBe(true);
    expect(subnet('10.0.0.0/8').contains(address('fd00::9'))).toBe(false);
  });

  test.each(['10.0.0.0', '10.0.0.0/33', 'fd00::/129', 'bogus/8', '10.0.0.0/x'])('%j is not a subnet', (text) => {
    expect(IpSubnet.parse(text)).toBeUndefined();
  });
});

describe('allocator', () => {
  test('hands out the lowest free address, never the network or broadcast address, and a released one again', () => {
    const allocator = new IpAddressAllocator(subnet('10.213.41.0/29'));
    const given = Array.from({ length: 6 }, () => allocator.allocate()).map((held) => (held ? formatIpAddress(held) : 'none'));
    expect(given).toEqual(['10.213.41.1', '10.213.41.2', '10.213.41.3', '10.213.41.4', '10.213.41.5', '10.213.41.6']);
    expect(allocator.allocate()).toBeUndefined();
    allocator.release(address('10.213.41.3'));
    expect(formatIpAddress(allocator.allocate() ?? address('0.0.0.0'))).toBe('10.213.41.3');
  });

  test('dynamic addresses come from the range, requested ones from anywhere in the subnet, each once', () => {
    const allocator = new IpAddressAllocator(subnet('10.213.51.0/24'), subnet('10.213.51.64/26'));
    expect(formatIpAddress(allocator.allocate() ?? address('0.0.0.0'))).toBe('10.213.51.64');
    expect(allocator.reserve(address('10.213.51.200'))).toBe('reserved');
    expect(allocator.reserve(address('10.213.51.200'))).toBe('in-use');
    expect(allocator.reserve(address('10.213.52.1'))).toBe('out-of-range');
    expect(allocator.reserve(address('10.213.51.0'))).toBe('in-use');
  });

  test('releasing the broadcast address does not make it usable', () => {
    const allocator = new IpAddressAllocator(subnet('10.0.0.0/30'));
    allocator.release(address('10.0.0.3'));
    expect(allocator.reserve(address('10.0.0.3'))).toBe('in-use');
  });

  test('an IPv6 subnet keeps only its first address back', () => {
    const allocator = new IpAddressAllocator(subnet('fd00:213::/126'));
    const given = [allocator.allocate(), allocator.allocate(), allocator.allocate(), allocator.allocate()];
    expect(given.map((held) => (held ? formatIpAddress(held) : 'none'))).toEqual(['fd00:213::1', 'fd00:213::2', 'fd00:213::3', 'none']);
  });
});
