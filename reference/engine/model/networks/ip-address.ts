/**
 * IPv4 and IPv6 addresses as numbers, so that subnets and allocators can count with them. Text is read
 * the way Go's net.ParseIP reads it (dotted quads; IPv6 with `::` and a trailing dotted quad) and
 * written the way Go writes it (IPv6 in lowercase with the longest run of two or more zero groups as
 * `::`), which is what dockerd shows.
 */

export type IpFamily = 4 | 6;

export interface IpAddress {
  family: IpFamily;
  value: bigint;
}

export const ADDRESS_BITS: Record<IpFamily, number> = { 4: 32, 6: 128 };

export function parseIpAddress(text: string): IpAddress | undefined {
  if (text.includes(':')) {
    const value = parseIpv6(text);
    return value === undefined ? undefined : { family: 6, value };
  }
  const value = parseIpv4(text);
  return value === undefined ? undefined : { family: 4, value };
}

export function formatIpAddress({ family, value }: IpAddress): string {
  return family === 4 ? formatIpv4(value) : formatIpv6(value);
}

/** The address's bytes, most significant first. */
export function addressBytes({ family, value }: IpAddress): number[] {
  const count = ADDRESS_BITS[family] / 8;
  return Array.from({ length: count }, (_, index) => Number((value >> BigInt(8 * (count - 1 - index))) & 0xffn));
}

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    // Go refuses leading zeros (an octal reading would be ambiguous) and anything but digits.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseIpv6(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string | undefined): number[] | undefined => {
    if (half === undefined || half === '') return [];
    const groups: number[] = [];
    const words = half.split(':');
    for (const [index, word] of words.entries()) {
      if (index === words.length - 1 && word.includes('.')) {
        const embedded = parseIpv4(word);
        if (embedded === undefined) return undefined;
        groups.push(Number(embedded >> 16n), Number(embedded & 0xffffn));
      } else if (/^[0-9a-fA-F]{1,4}$/.test(word)) {
        groups.push(parseInt(word, 16));
      } else {
        return undefined;
      }
    }
    return groups;
  };
  const head = groupsOf(halves[0]);
  const tail = groupsOf(halves[1]);
  if (head === undefined || tail === undefined) return undefined;
  const compressed = halves.length === 2;
  const missing = 8 - head.length - tail.length;
  if (compressed ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<number>(compressed ? missing : 0).fill(0), ...tail];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

function formatIpv4(value: bigint): string {
  return addressBytes({ family: 4, value }).join('.');
}

function formatIpv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, index) => Number((value >> BigInt(16 * (7 - index))) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; ) {
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end === start ? start + 1 : end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}
