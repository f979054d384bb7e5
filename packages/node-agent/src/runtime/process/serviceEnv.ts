import type { Service } from '@orch/api';

/** The namespace and names of the services every pod gets variables for (the apiserver's). */
const MASTER_NAMESPACE = 'default';
const MASTER_SERVICES = new Set(['kubernetes']);

/** A service or port name as a variable name: upper case, `-` as `_`. */
function envName(name: string): string {
  return name.replace(/-/g, '_').toUpperCase();
}

/** Whether a service has a cluster IP (not headless, not an ExternalName). */
function hasClusterIP(svc: Service): boolean {
  const ip = svc.spec?.clusterIP ?? '';
  return ip !== '' && ip !== 'None';
}

function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The variables of one service (Kubernetes' envvars.FromServices). */
function serviceVars(svc: Service, out: Map<string, string>): void {
  const ip = svc.spec?.clusterIP ?? '';
  const ports = svc.spec?.ports ?? [];
  const prefix = envName(svc.metadata?.name ?? '');
  out.set(`${prefix}_SERVICE_HOST`, ip);
  if (ports.length === 0) return;
  out.set(`${prefix}_SERVICE_PORT`, String(ports[0]!.port));
  for (const p of ports) if (p.name) out.set(`${prefix}_SERVICE_PORT_${envName(p.name)}`, String(p.port));
  // docker link variables
  ports.forEach((p, i) => {
    const port = p.port ?? 0;
    const protocol = (p.protocol || 'TCP').toLowerCase();
    const url = `${protocol}://${joinHostPort(ip, port)}`;
    if (i === 0) out.set(`${prefix}_PORT`, url);
    const portPrefix = `${prefix}_PORT_${port}_${protocol.toUpperCase()}`;
    out.set(portPrefix, url);
    out.set(`${portPrefix}_PROTO`, protocol);
    out.set(`${portPrefix}_PORT`, String(port));
    out.set(`${portPrefix}_ADDR`, ip);
  });
}

/**
 * The service variables the kubelet gives a pod's containers (getServiceEnvVarMap): for the
 * `kubernetes` service of `default` always, and with service links enabled for every service of
 * the pod's namespace (which wins over the former of the same name); services without a cluster IP
 * give none. In the order of the services' names.
 */
export function serviceEnvVars(
  services: readonly Service[],
  namespace: string,
  enableServiceLinks: boolean,
): Map<string, string> {
  const byName = new Map<string, Service>();
  for (const svc of services) {
    if (!hasClusterIP(svc)) continue;
    const name = svc.metadata?.name ?? '';
    const ns = svc.metadata?.namespace ?? '';
    if (ns === MASTER_NAMESPACE && MASTER_SERVICES.has(name)) {
      if (!byName.has(name)) byName.set(name, svc);
    } else if (ns === namespace && enableServiceLinks) {
      byName.set(name, svc);
    }
  }
  const out = new Map<string, string>();
  for (const name of [...byName.keys()].sort()) serviceVars(byName.get(name)!, out);
  return out;
}
