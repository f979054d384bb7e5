import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSelfSignedCertificate, version } from '@orch/component-base';
import { APIServer, type APIServerConfig } from '../server/apiserver';
import { SqliteStorage } from '../storage/embedded/sqlite-storage';

export interface TestAPIServer {
  server: APIServer;
  url: string;
  /** A kubeconfig for stock kubectl that trusts the server's certificate. */
  kubeconfig: string;
  dir: string;
  ca: string;
  /** Stops the server and removes its directory; closes the store too unless it was passed in. */
  close(): Promise<void>;
}

/** A further kubeconfig user, with a context of the same name. */
export interface TestKubeconfigUser {
  name: string;
  token?: string;
  /** PEM client certificate and key. */
  clientCertificate?: { cert: string; key: string };
}

export interface TestAPIServerOptions {
  /** Users (and contexts named after them) added to the kubeconfig besides `admin`. */
  kubeconfigUsers?: TestKubeconfigUser[];
}

function kubeconfigUserLines(u: TestKubeconfigUser): string[] {
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  return [
    `- name: ${u.name}`,
    '  user:',
    ...(u.token ? [`    token: ${u.token}`] : []),
    ...(u.clientCertificate
      ? [
          `    client-certificate-data: ${b64(u.clientCertificate.cert)}`,
          `    client-key-data: ${b64(u.clientCertificate.key)}`,
        ]
      : []),
    ...(!u.token && !u.clientCertificate ? ['    {}'] : []),
  ];
}

/** Starts an orch-apiserver on a random loopback port over a fresh embedded store. */
export async function startTestAPIServer(
  overrides: Partial<APIServerConfig> = {},
  options: TestAPIServerOptions = {},
): Promise<TestAPIServer> {
  const users = options.kubeconfigUsers ?? [];
  const dir = mkdtempSync(join(tmpdir(), 'orch-apiserver-'));
  const storage = overrides.storage ?? new SqliteStorage(join(dir, 'orch.db'));
  const tls = generateSelfSignedCertificate({
    commonName: 'localhost',
    dnsNames: ['localhost'],
    ips: ['127.0.0.1'],
  });
  const server = new APIServer({
    storage,
    bindAddress: '127.0.0.1',
    securePort: 0,
    tls,
    maxRequestsInflight: 400,
    maxMutatingRequestsInflight: 200,
    requestTimeoutMs: 60_000,
    version,
    ...overrides,
  });
  await server.bootstrap();
  await server.start();
  const url = `https://127.0.0.1:${server.port()}`;
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: orch',
      '  cluster:',
      `    server: ${url}`,
      `    certificate-authority-data: ${Buffer.from(tls.cert).toString('base64')}`,
      'users:',
      '- name: admin',
      '  user:',
      '    token: admin-token',
      ...users.flatMap(kubeconfigUserLines),
      'contexts:',
      '- name: orch',
      '  context: {cluster: orch, user: admin}',
      ...users.flatMap((u) => [`- name: ${u.name}`, `  context: {cluster: orch, user: ${u.name}}`]),
      'current-context: orch',
      '',
    ].join('\n'),
  );
  return {
    server,
    url,
    kubeconfig,
    dir,
    ca: tls.cert,
    async close() {
      await server.close();
      // a store passed in belongs to the caller, who may start another server over it
      if (!overrides.storage) await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
