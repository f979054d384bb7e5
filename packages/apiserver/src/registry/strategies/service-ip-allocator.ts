import { randomInt } from 'node:crypto';
import type { Storage } from '../../storage/storage';
import { StorageError } from '../../storage/storage-error';

/** Where allocations live: one key per cluster IP and per node port, created atomically. */
export const serviceIPPrefix = '/registry/core/serviceips/';
export const serviceNodePortPrefix = '/registry/core/servicenodeports/';

/** Kubernetes' defaults of `--service-cluster-ip-range` and `--service-node-port-range`. */
export const defaultServiceClusterIPRange = '10.0.0.0/24';
export const defaultServiceNodePortRange = '30000-32767';

/** The first and last port of a `--service-node-port-range` such as `30000-32767`. */
export function parsePortRange(portRange: string): [number, number] {
  const m = /^(\d+)-(\d+)$/.exec(portRange);
  const low = Number(m?.[1]);
  const high = Number(m?.[2]);
  if (!m || low < 1 || high > 65535 || low > high) {
    throw new Error(`invalid service node port range "${portRange}"`);
  }
  return [low, high];
}

/** Why an allocation failed; the service registry turns it into a 422 on the field concerned. */
export class AllocationError extends Error {
  constructor(
    readonly reason: 'NotInRange' | 'Allocated' | 'Full',
    message: string,
  ) {
    super(message);
  }
}

function ipv4ToNumber(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

function numberToIPv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** An inclusive integer range with allocations stored as keys `<prefix><value>`. */
class StoredRange<T> {
  constructor(
    private readonly storage: Storage,
    private readonly prefix: string,
    private readonly first: number,
    private readonly last: number,
    private readonly format: (n: number) => string,
    private readonly parse: (s: T) => number | undefined,
  ) {}

  get size(): number {
    return this.last - this.first + 1;
  }

  contains(value: T): boolean {
    const n = this.parse(value);
    return n !== undefined && n >= this.first && n <= this.last;
  }

  /** Takes `value`; false when it is already taken. */
  async take(value: T): Promise<boolean> {
    try {
      await this.storage.create(this.prefix + this.format(this.parse(value)!), Buffer.from('{}'));
      return true;
    } catch (e) {
      if (e instanceof StorageError && e.code === 'KeyExists') return false;
      throw e;
    }
  }

  /** Takes any free value, starting at a random offset and probing onwards; undefined when full. */
  async takeAny(skip: (n: number) => boolean): Promise<number | undefined> {
    const start = randomInt(0, this.size);
    for (let i = 0; i < this.size; i++) {
      const n = this.first + ((start + i) % this.size);
      if (skip(n)) continue;
      try {
        await this.storage.create(this.prefix + this.format(n), Buffer.from('{}'));
        return n;
      } catch (e) {
        if (!(e instanceof StorageError && e.code === 'KeyExists')) throw e;
      }
    }
    return undefined;
  }

  async release(value: T): Promise<void> {
    const n = this.parse(value);
    if (n === undefined) return;
    try {
      await this.storage.delete(this.prefix + this.format(n));
    } catch (e) {
      if (!(e instanceof StorageError && e.code === 'NotFound')) throw e;
    }
  }
}

/**
 * Service cluster IPs from `--service-cluster-ip-range` and node ports from
 * `--service-node-port-range`. The state lives in storage (one key per allocated value, taken with an
 * atomic create), so several apiservers over one store never hand out the same IP or port.
 */
export class ServiceIPAllocator {
  private readonly ips: StoredRange<string>;
  private readonly ports: StoredRange<number>;
  private readonly network: number;
  private readonly prefixLength: number;
  readonly portRange: string;

  constructor(
    storage: Storage,
    readonly cidr: string = defaultServiceClusterIPRange,
    portRange: string = defaultServiceNodePortRange,
  ) {
    const [addr, bits] = cidr.split('/');
    const base = ipv4ToNumber(addr ?? '');
    const prefixLength = Number(bits);
    if (base === undefined || !Number.isInteger(prefixLength) || prefixLength < 8 || prefixLength > 30) {
      throw new Error(`invalid service cluster IP range "${cidr}": an IPv4 CIDR from /8 to /30 is required`);
    }
    const size = 2 ** (32 - prefixLength);
    this.network = base - (base % size);
    this.prefixLength = prefixLength;
    // the network and broadcast addresses are never handed out
    this.ips = new StoredRange(
      storage,
      serviceIPPrefix,
      this.network + 1,
      this.network + size - 2,
      numberToIPv4,
      ipv4ToNumber,
    );
    const [low, high] = parsePortRange(portRange);
    this.portRange = portRange;
    this.ports = new StoredRange(storage, serviceNodePortPrefix, low, high, String, (p: number) =>
      Number.isInteger(p) ? p : undefined,
    );
  }

  /** The range in canonical form (network address). */
  get range(): string {
    return `${numberToIPv4(this.network)}/${this.prefixLength}`;
  }

  /** The first usable IP of the range: the `kubernetes` Service's. */
  firstIP(): string {
    return numberToIPv4(this.network + 1);
  }

  /** Allocates `requested` (when free and in range) or any free IP but the first. */
  async allocateIP(requested?: string): Promise<string> {
    if (requested) {
      if (!this.ips.contains(requested)) {
        throw new AllocationError(
          'NotInRange',
          `failed to allocate IP ${requested}: provided IP is not in the valid range. The range of valid IPs is ${this.range}`,
        );
      }
      if (!(await this.ips.take(requested)))
        throw new AllocationError(
          'Allocated',
          `failed to allocate IP ${requested}: provided IP is already allocated`,
        );
      return requested;
    }
    const first = this.network + 1;
    const n = await this.ips.takeAny((x) => x === first);
    if (n === undefined) throw new AllocationError('Full', `failed to allocate a serviceIP: range is full`);
    return numberToIPv4(n);
  }

  async releaseIP(ip: string): Promise<void> {
    if (this.ips.contains(ip)) await this.ips.release(ip);
  }

  /** Allocates `requested` (when free and in range) or any free node port. */
  async allocateNodePort(requested?: number): Promise<number> {
    if (requested) {
      if (!this.ports.contains(requested)) {
        throw new AllocationError(
          'NotInRange',
          `provided port is not in the valid range. The range of valid ports is ${this.portRange}`,
        );
      }
      if (!(await this.ports.take(requested)))
        throw new AllocationError('Allocated', 'provided port is already allocated');
      return requested;
    }
    const n = await this.ports.takeAny(() => false);
    if (n === undefined) throw new AllocationError('Full', 'range is full');
    return n;
  }

  async releaseNodePort(port: number): Promise<void> {
    if (this.ports.contains(port)) await this.ports.release(port);
  }
}
