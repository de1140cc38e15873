/**
 * A CIDR block (`10.213.7.0/24`, `fd00:1::/64`): the addresses it spans, whether it holds an address
 * or overlaps another block. Host bits in the text are allowed and dropped, as Go's net.ParseCIDR
 * does; the text itself is kept, since dockerd shows a network's subnet as it was given.
 */
import { ADDRESS_BITS, parseIpAddress, type IpAddress, type IpFamily } from './ip-address.ts';

export class IpSubnet {
  private constructor(
    readonly family: IpFamily,
    /** the first address: the base address with the host bits cleared */
    readonly first: bigint,
    readonly prefixLength: number,
    /** as given */
    readonly text: string,
  ) {}

  /** undefined for anything that is not `address/length` with a length the family allows */
  static parse(text: string): IpSubnet | undefined {
    const slash = text.indexOf('/');
    if (slash < 0) return undefined;
    const address = parseIpAddress(text.slice(0, slash));
    const lengthText = text.slice(slash + 1);
    if (!address || !/^[0-9]{1,3}$/.test(lengthText)) return undefined;
    const prefixLength = Number(lengthText);
    const bits = ADDRESS_BITS[address.family];
    if (prefixLength > bits) return undefined;
    const hostMask = (1n << BigInt(bits - prefixLength)) - 1n;
    return new IpSubnet(address.family, address.value & ~hostMask, prefixLength, text);
  }

  /** The last address: the broadcast address of an IPv4 subnet. */
  get last(): bigint {
    return this.first + (1n << BigInt(ADDRESS_BITS[this.family] - this.prefixLength)) - 1n;
  }

  contains(address: IpAddress): boolean {
    return address.family === this.family && address.value >= this.first && address.value <= this.last;
  }

  overlaps(other: IpSubnet): boolean {
    return other.family === this.family && other.first <= this.last && this.first <= other.last;
  }
}
