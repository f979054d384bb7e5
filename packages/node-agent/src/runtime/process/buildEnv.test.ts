import type { Container, Pod, Secret, Service } from '@orch/api';
import {
  buildEnv,
  ContainerConfigError,
  invalidEnvKeysMessage,
  podFieldValue,
  type ConfigMap,
  type EnvSources,
} from './buildEnv';

const pod = {
  metadata: {
    name: 'web',
    namespace: 'ns1',
    uid: 'u-1',
    labels: { app: 'web' },
    annotations: { note: 'hi' },
  },
  spec: { nodeName: 'n0', serviceAccountName: 'sa', containers: [] },
} as unknown as Pod;
const addresses = { podIP: '10.244.0.5', hostIP: '172.18.0.1' };

/** ConfigMaps and Secrets held in maps, as the API would return them. */
function sources(
  configMaps: Record<string, ConfigMap['data']>,
  secrets: Record<string, Record<string, string>> = {},
): EnvSources {
  return {
    configMap: async (_ns, name) =>
      configMaps[name] ? ({ data: configMaps[name] } as ConfigMap) : undefined,
    secret: async (_ns, name) =>
      secrets[name]
        ? ({
            data: Object.fromEntries(
              Object.entries(secrets[name]!).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
            ),
          } as Secret)
        : undefined,
  };
}

const build = (container: Partial<Container>, src: EnvSources = sources({})) =>
  buildEnv(pod, { name: 'c', ...container } as Container, src, addresses);

describe('buildEnv', () => {
  it('expands values with the variables defined before them, not after', async () => {
    const { env } = await build({
      env: [
        { name: 'A', value: 'a' },
        { name: 'B', value: '$(A)-b' },
        { name: 'C', value: '$(D)$$(A)' },
        { name: 'D', value: 'd' },
      ],
    });
    expect([...env]).toEqual([
      ['A', 'a'],
      ['B', 'a-b'],
      ['C', '$(D)$(A)'],
      ['D', 'd'],
    ]);
  });

  it('reads the downward API fields', async () => {
    const fields = [
      'metadata.name',
      'metadata.namespace',
      'metadata.uid',
      'spec.nodeName',
      'spec.serviceAccountName',
      'status.podIP',
      'status.hostIP',
      "metadata.labels['app']",
      "metadata.annotations['note']",
      "metadata.labels['missing']",
    ];
    const { env } = await build({
      env: fields.map((fieldPath, i) => ({ name: `F${i}`, valueFrom: { fieldRef: { fieldPath } } })),
    });
    expect([...env.values()]).toEqual([
      'web',
      'ns1',
      'u-1',
      'n0',
      'sa',
      '10.244.0.5',
      '172.18.0.1',
      'web',
      'hi',
      '',
    ]);
    expect(() => podFieldValue(pod, 'spec.nope', addresses)).toThrow(ContainerConfigError);
  });

  it('reads ConfigMap and Secret keys, honouring optional', async () => {
    const src = sources({ cm: { color: 'blue' } }, { sec: { password: 's3cret' } });
    const { env } = await build(
      {
        env: [
          { name: 'COLOR', valueFrom: { configMapKeyRef: { name: 'cm', key: 'color' } } },
          { name: 'PASS', valueFrom: { secretKeyRef: { name: 'sec', key: 'password' } } },
          { name: 'OPT1', valueFrom: { configMapKeyRef: { name: 'cm', key: 'nope', optional: true } } },
          { name: 'OPT2', valueFrom: { secretKeyRef: { name: 'gone', key: 'k', optional: true } } },
        ],
      },
      src,
    );
    expect(Object.fromEntries(env)).toEqual({ COLOR: 'blue', PASS: 's3cret' });
    await expect(
      build({ env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'gone', key: 'k' } } }] }, src),
    ).rejects.toThrow('configmap "gone" not found');
    await expect(
      build({ env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }] }, src),
    ).rejects.toThrow("couldn't find key k in ConfigMap ns1/cm");
    await expect(
      build({ env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'sec', key: 'k' } } }] }, src),
    ).rejects.toThrow("couldn't find key k in Secret ns1/sec");
  });

  it('takes envFrom sources with their prefix, skipping and reporting invalid keys; env wins', async () => {
    const src = sources(
      { cm: { A: '1', 'bad key': 'x', '1st': 'y', B: '2' } },
      { sec: { B: 'secret-b', S: 's' } },
    );
    const { env, invalid } = await build(
      {
        envFrom: [
          { configMapRef: { name: 'cm' } },
          { secretRef: { name: 'sec' } },
          { prefix: 'P_', configMapRef: { name: 'cm' } },
          { configMapRef: { name: 'missing', optional: true } },
        ],
        env: [{ name: 'A', value: 'env-$(B)' }],
      },
      src,
    );
    expect(Object.fromEntries(env)).toEqual({
      A: 'env-secret-b',
      B: 'secret-b',
      S: 's',
      P_A: '1',
      P_B: '2',
      P_1st: 'y',
    });
    expect(invalid).toEqual([
      { source: 'configMap', name: 'cm', keys: ['1st', 'bad key'] },
      { source: 'configMap', name: 'cm', keys: ['P_bad key'] },
    ]);
    expect(invalidEnvKeysMessage('ns1', invalid[0]!)).toBe(
      'Keys [1st, bad key] from the EnvFrom configMap ns1/cm were skipped since they are considered invalid environment variable names.',
    );
    await expect(build({ envFrom: [{ secretRef: { name: 'missing' } }] }, src)).rejects.toThrow(
      'secret "missing" not found',
    );
  });
  it('adds the service variables last; env and envFrom override them and expand them', async () => {
    const services: Service[] = [
      {
        metadata: { namespace: 'default', name: 'kubernetes' },
        spec: { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443 }] },
      },
      {
        metadata: { namespace: 'ns1', name: 'db' },
        spec: { clusterIP: '10.96.0.7', ports: [{ port: 5432 }] },
      },
    ] as unknown as Service[];
    const src = { ...sources({ cm: { DB_PORT: 'from-configmap' } }), services: async () => services };
    const { env } = await build(
      {
        envFrom: [{ configMapRef: { name: 'cm' } }],
        env: [
          { name: 'URL', value: 'postgres://$(DB_SERVICE_HOST):$(DB_SERVICE_PORT)' },
          { name: 'DB_SERVICE_HOST', value: 'mine' },
        ],
      },
      src,
    );
    expect(env.get('URL')).toBe('postgres://10.96.0.7:5432');
    expect(env.get('DB_SERVICE_HOST')).toBe('mine');
    expect(env.get('DB_PORT')).toBe('from-configmap');
    expect(env.get('KUBERNETES_SERVICE_PORT')).toBe('443');
    expect([...env.keys()].slice(0, 3)).toEqual(['DB_PORT', 'URL', 'DB_SERVICE_HOST']);
    const unlinked = await buildEnv(
      { ...pod, spec: { ...pod.spec!, enableServiceLinks: false } } as Pod,
      { name: 'c' } as Container,
      src,
      addresses,
    );
    expect(unlinked.env.has('DB_SERVICE_HOST')).toBe(false);
    expect(unlinked.env.get('KUBERNETES_SERVICE_HOST')).toBe('10.96.0.1');
  });

  it("reads resourceFieldRef from the container's resources or the node's allocatable", async () => {
    const { env } = await buildEnv(
      pod,
      {
        name: 'c',
        resources: { limits: { memory: '128Mi' } },
        env: [
          { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
          { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1m' } } },
        ],
      } as unknown as Container,
      sources({}),
      { ...addresses, allocatable: { cpu: '2', memory: '4Gi' } },
    );
    expect(Object.fromEntries(env)).toEqual({ MEM: '128', CPU: '2000' });
  });
});
