import { createServer, connect, type Server, type Socket } from 'node:net';
import type { Node, Service } from '@orch/api';
import type { LoadBalancer, LoadBalancerStatus } from '../../cloudprovider/CloudProvider';
import { ipv4Hosts, ipv4InCIDR } from '../../net/cidr';

/** One listening port of a load balancer. */
interface Frontend {
  server: Server;
  /** The node port connections are forwarded to. */
  nodePort: number;
}

interface LocalLB {
  ip: string;
  frontends: Map<number, Frontend>;
  /** Node addresses connections are spread over, round robin. */
  backends: string[];
  next: number;
  sockets: Set<Socket>;
}

/** Kubernetes' default load balancer name: "a" and the service UID without dashes, at most 32 characters. */
export function defaultLoadBalancerName(service: Service): string {
  return `a${(service.metadata?.uid ?? '').replace(/-/g, '')}`.slice(0, 32);
}

/** The addresses a load balancer forwards to: each node's InternalIP, else its ExternalIP. */
export function nodeBackendAddresses(nodes: readonly Node[]): string[] {
  const out: string[] = [];
  for (const node of nodes) {
    const addresses = node.status?.addresses ?? [];
    const address =
      addresses.find((a) => a.type === 'InternalIP')?.address ??
      addresses.find((a) => a.type === 'ExternalIP')?.address;
    if (address && !out.includes(address)) out.push(address);
  }
  return out;
}

function listen(server: Server, ip: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(port, ip, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Load balancers on this machine: each gets an address of a loopback pool and a real TCP listener
 * on that address for every TCP port of its service, forwarding each connection to a node address
 * (round robin, the next node when one refuses) at the port's nodePort. UDP and SCTP ports are not
 * balanced.
 */
export class LocalLoadBalancers implements LoadBalancer {
  private readonly lbs = new Map<string, LocalLB>();
  private readonly hosts: ReturnType<typeof ipv4Hosts>;

  constructor(private readonly pool: string) {
    this.hosts = ipv4Hosts(pool);
  }

  getLoadBalancerName(_clusterName: string, service: Service): string {
    return defaultLoadBalancerName(service);
  }

  async getLoadBalancer(clusterName: string, service: Service): Promise<LoadBalancerStatus | undefined> {
    const lb = this.lbs.get(this.getLoadBalancerName(clusterName, service));
    return lb ? { ingress: [{ ip: lb.ip }] } : undefined;
  }

  /** The addresses in use, by load balancer name. */
  addresses(): Record<string, string> {
    return Object.fromEntries([...this.lbs].map(([name, lb]) => [name, lb.ip]));
  }

  private allocate(service: Service): string {
    const used = new Set([...this.lbs.values()].map((lb) => lb.ip));
    // The requested IP, then the one the service already shows (a restart keeps addresses).
    const wanted = [
      service.spec?.loadBalancerIP,
      ...(service.status?.loadBalancer?.ingress ?? []).map((i) => i.ip),
    ];
    for (const ip of wanted) if (ip && ipv4InCIDR(ip, this.pool) && !used.has(ip)) return ip;
    if (service.spec?.loadBalancerIP)
      throw new Error(
        `requested load balancer IP ${service.spec.loadBalancerIP} is not free in ${this.pool}`,
      );
    for (let i = 0; this.hosts.first + i <= this.hosts.last; i++) {
      const ip = this.hosts.at(i);
      if (!used.has(ip)) return ip;
    }
    throw new Error(`no free load balancer address left in ${this.pool}`);
  }

  async ensureLoadBalancer(
    clusterName: string,
    service: Service,
    nodes: Node[],
  ): Promise<LoadBalancerStatus> {
    const name = this.getLoadBalancerName(clusterName, service);
    let lb = this.lbs.get(name);
    if (!lb) {
      lb = { ip: this.allocate(service), frontends: new Map(), backends: [], next: 0, sockets: new Set() };
      this.lbs.set(name, lb);
    }
    lb.backends = nodeBackendAddresses(nodes);
    const ports = (service.spec?.ports ?? [])
      .filter((p) => (p.protocol ?? 'TCP') === 'TCP')
      .map((p) => ({ port: p.port ?? 0, nodePort: p.nodePort ?? 0 }));
    for (const [port, frontend] of lb.frontends) {
      if (ports.some((p) => p.port === port)) continue;
      lb.frontends.delete(port);
      await closeServer(frontend.server);
    }
    for (const p of ports) {
      const existing = lb.frontends.get(p.port);
      if (existing) {
        existing.nodePort = p.nodePort ?? 0;
        continue;
      }
      const frontend: Frontend = { server: createServer(), nodePort: p.nodePort ?? 0 };
      const owner = lb;
      frontend.server.on('connection', (socket) => this.forward(owner, frontend, socket));
      try {
        await listen(frontend.server, lb.ip, p.port);
      } catch (err) {
        throw new Error(`listening on ${lb.ip}:${p.port}: ${(err as Error).message}`, { cause: err });
      }
      lb.frontends.set(p.port, frontend);
    }
    return { ingress: [{ ip: lb.ip }] };
  }

  async updateLoadBalancer(clusterName: string, service: Service, nodes: Node[]): Promise<void> {
    const lb = this.lbs.get(this.getLoadBalancerName(clusterName, service));
    if (!lb) throw new Error(`load balancer ${this.getLoadBalancerName(clusterName, service)} not found`);
    lb.backends = nodeBackendAddresses(nodes);
  }

  async ensureLoadBalancerDeleted(clusterName: string, service: Service): Promise<void> {
    const name = this.getLoadBalancerName(clusterName, service);
    const lb = this.lbs.get(name);
    if (!lb) return;
    this.lbs.delete(name);
    await this.shutdown(lb);
  }

  /** Closes every listener and open connection. */
  async close(): Promise<void> {
    const all = [...this.lbs.values()];
    this.lbs.clear();
    await Promise.all(all.map((lb) => this.shutdown(lb)));
  }

  private async shutdown(lb: LocalLB): Promise<void> {
    for (const s of lb.sockets) s.destroy();
    lb.sockets.clear();
    await Promise.all([...lb.frontends.values()].map((f) => closeServer(f.server)));
    lb.frontends.clear();
  }

  private forward(lb: LocalLB, frontend: Frontend, client: Socket): void {
    lb.sockets.add(client);
    client.on('close', () => lb.sockets.delete(client));
    client.on('error', () => client.destroy());
    client.pause();
    const candidates = lb.backends.length;
    const attempt = (tries: number): void => {
      if (tries >= candidates || frontend.nodePort === 0 || client.destroyed) {
        client.destroy();
        return;
      }
      const address = lb.backends[lb.next++ % candidates]!;
      const upstream = connect(frontend.nodePort, address);
      lb.sockets.add(upstream);
      upstream.on('close', () => lb.sockets.delete(upstream));
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      upstream.on('error', () => {
        upstream.destroy();
        if (connected) client.destroy();
        else attempt(tries + 1);
      });
      client.once('close', () => upstream.destroy());
    };
    attempt(0);
  }
}
