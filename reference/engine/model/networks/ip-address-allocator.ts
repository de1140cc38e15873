/**
 * The addresses of one subnet that are taken, as dockerd's IPAM keeps them: the network address (and
 * an IPv4 subnet's broadcast address) are never handed out; a dynamic address is the lowest free one
 * of the pool's range (the whole subnet unless an IPRange narrows it), so a released address is the
 * next one given; a requested address may be anywhere in the subnet. No address is held twice.
 */
import type { IpAddress } from './ip-address.ts';
import type { IpSubnet } from './ip-subnet.ts';

export type Reservation = 'reserved' | 'in-use' | 'out-of-range';

export class IpAddressAllocator {
  private readonly taken = new Set<bigint>();
  /** the network and broadcast addresses: taken for good */
  private readonly unusable: bigint[];
  /** the bounds dynamic addresses come from */
  private readonly rangeFirst: bigint;
  private readonly rangeLast: bigint;

  constructor(
    readonly subnet: IpSubnet,
    /** dynamic addresses only from here; a range reaching outside the subnet is cut to it */
    range?: IpSubnet,
  ) {
    this.rangeFirst = range && range.first > subnet.first ? range.first : subnet.first;
    this.rangeLast = range && range.last < subnet.last ? range.last : subnet.last;
    this.unusable = subnet.family === 4 ? [subnet.first, subnet.last] : [subnet.first];
    for (const value of this.unusable) this.taken.add(value);
  }

  /** Takes a given address for its holder. */
  reserve(address: IpAddress): Reservation {
    if (!this.subnet.contains(address)) return 'out-of-range';
    if (this.taken.has(address.value)) return 'in-use';
    this.taken.add(address.value);
    return 'reserved';
  }

  /** Takes the lowest free address of the range; undefined when none is left. */
  allocate(): IpAddress | undefined {
    for (let value = this.rangeFirst; value <= this.rangeLast; value++) {
      if (this.taken.has(value)) continue;
      this.taken.add(value);
      return { family: this.subnet.family, value };
    }
    return undefined;
  }

  release(address: IpAddress): void {
    if (this.subnet.contains(address) && !this.unusable.includes(address.value)) this.taken.delete(address.value);
  }
}
