import type { Pod } from '@orch/api';

/** The wildcard host IP: a port bound on it conflicts with the same port on every IP. */
export const DEFAULT_BIND_ALL_HOST_IP = '0.0.0.0';
const DEFAULT_PROTOCOL = 'TCP';

/** One host port a container asks for: an empty IP means every IP, an empty protocol TCP. */
export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

/** The host ports a pod's containers request (ports without a hostPort are left out). */
export function podHostPorts(pod: Pod): HostPort[] {
  const result: HostPort[] = [];
  for (const c of pod.spec?.containers ?? []) {
    const ports = c.ports;
    if (!ports) continue;
    for (const p of ports) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      result.push({
        ip: p.hostIP || DEFAULT_BIND_ALL_HOST_IP,
        protocol: p.protocol || DEFAULT_PROTOCOL,
        port: p.hostPort,
      });
    }
  }
  return result;
}

/**
 * The host ports in use on a node, counted per (IP, protocol, port) and per (protocol, port) so that
 * a conflict with the wildcard IP is found without scanning every IP.
 */
export class HostPortInfo {
  private readonly byIP = new Map<string, number>();
  private readonly anyIP = new Map<string, number>();

  get size(): number {
    return this.byIP.size;
  }

  /** Adds (sign 1) or removes (sign -1) the host ports of a pod. */
  addPod(pod: Pod, sign: 1 | -1): void {
    const containers = pod.spec?.containers;
    if (!containers || !containers.some((c) => c.ports && c.ports.length > 0)) return;
    for (const p of podHostPorts(pod)) this.add(p, sign);
  }

  add(p: HostPort, sign: 1 | -1 = 1): void {
    const pp = `${p.protocol}/${p.port}`;
    bump(this.byIP, `${p.ip}|${pp}`, sign);
    bump(this.anyIP, pp, sign);
  }

  /** Whether the port is taken: on the same IP, on the wildcard IP, or anywhere when it is the wildcard. */
  conflicts(p: HostPort): boolean {
    const pp = `${p.protocol}/${p.port}`;
    if (p.ip === DEFAULT_BIND_ALL_HOST_IP) return this.anyIP.has(pp);
    return this.byIP.has(`${p.ip}|${pp}`) || this.byIP.has(`${DEFAULT_BIND_ALL_HOST_IP}|${pp}`);
  }
}

function bump(map: Map<string, number>, key: string, sign: 1 | -1): void {
  const n = (map.get(key) ?? 0) + sign;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}
