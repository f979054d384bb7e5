import type { Service } from '@orch/api';
import { serviceEnvVars } from './serviceEnv';

const svc = (namespace: string, name: string, clusterIP: string, ports: object[]): Service =>
  ({ metadata: { namespace, name }, spec: { clusterIP, ports } }) as unknown as Service;

const kubernetes = svc('default', 'kubernetes', '10.96.0.1', [{ name: 'https', port: 443, protocol: 'TCP' }]);
const web = svc('ns1', 'my-web', '10.96.0.20', [
  { port: 80, protocol: 'TCP' },
  { name: 'dns-udp', port: 53, protocol: 'UDP' },
]);

describe('serviceEnvVars', () => {
  it("gives the kubelet's variables of the namespace's services and of default/kubernetes", () => {
    const env = serviceEnvVars(
      [kubernetes, web, svc('other', 'elsewhere', '10.96.0.30', [{ port: 1 }])],
      'ns1',
      true,
    );
    expect(Object.fromEntries(env)).toEqual({
      KUBERNETES_SERVICE_HOST: '10.96.0.1',
      KUBERNETES_SERVICE_PORT: '443',
      KUBERNETES_SERVICE_PORT_HTTPS: '443',
      KUBERNETES_PORT: 'tcp://10.96.0.1:443',
      KUBERNETES_PORT_443_TCP: 'tcp://10.96.0.1:443',
      KUBERNETES_PORT_443_TCP_PROTO: 'tcp',
      KUBERNETES_PORT_443_TCP_PORT: '443',
      KUBERNETES_PORT_443_TCP_ADDR: '10.96.0.1',
      MY_WEB_SERVICE_HOST: '10.96.0.20',
      MY_WEB_SERVICE_PORT: '80',
      MY_WEB_SERVICE_PORT_DNS_UDP: '53',
      MY_WEB_PORT: 'tcp://10.96.0.20:80',
      MY_WEB_PORT_80_TCP: 'tcp://10.96.0.20:80',
      MY_WEB_PORT_80_TCP_PROTO: 'tcp',
      MY_WEB_PORT_80_TCP_PORT: '80',
      MY_WEB_PORT_80_TCP_ADDR: '10.96.0.20',
      MY_WEB_PORT_53_UDP: 'udp://10.96.0.20:53',
      MY_WEB_PORT_53_UDP_PROTO: 'udp',
      MY_WEB_PORT_53_UDP_PORT: '53',
      MY_WEB_PORT_53_UDP_ADDR: '10.96.0.20',
    });
  });

  it('keeps only the kubernetes service when service links are disabled', () => {
    const env = serviceEnvVars([kubernetes, web], 'ns1', false);
    expect([...env.keys()].every((k) => k.startsWith('KUBERNETES_'))).toBe(true);
    expect(env.get('KUBERNETES_SERVICE_HOST')).toBe('10.96.0.1');
  });

  it('skips services without a cluster IP; a namespace service named kubernetes wins', () => {
    const env = serviceEnvVars(
      [
        kubernetes,
        svc('ns1', 'headless', 'None', [{ port: 80 }]),
        svc('ns1', 'external', '', []),
        svc('ns1', 'kubernetes', '10.96.0.99', [{ port: 8080 }]),
        svc('ns1', 'v6', 'fd00::10', [{ port: 80 }]),
      ],
      'ns1',
      true,
    );
    expect(env.has('HEADLESS_SERVICE_HOST')).toBe(false);
    expect(env.has('EXTERNAL_SERVICE_HOST')).toBe(false);
    expect(env.get('KUBERNETES_SERVICE_HOST')).toBe('10.96.0.99');
    expect(env.get('KUBERNETES_PORT')).toBe('tcp://10.96.0.99:8080');
    expect(env.get('V6_PORT_80_TCP')).toBe('tcp://[fd00::10]:80');
  });
});
