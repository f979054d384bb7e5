import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSelfSignedCertificate } from '@orch/component-base';
import { APIServer, type APIServerConfig } from '../server/apiserver';
import { SqliteStorage } from '../storage/embedded/sqlite-storage';
import { orchVersion } from '../server/version';

export interface TestAPIServer {
  server: APIServer;
  url: string;
  /** A kubeconfig for stock kubectl that trusts the server's certificate. */
  kubeconfig: string;
  dir: string;
  ca: string;
  close(): Promise<void>;
}

/** Starts an orch-apiserver on a random loopback port over a fresh embedded store. */
export async function startTestAPIServer(overrides: Partial<APIServerConfig> = {}): Promise<TestAPIServer> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-apiserver-'));
  const storage = overrides.storage ?? new SqliteStorage(join(dir, 'orch.db'));
  const tls = generateSelfSignedCertificate({ commonName: 'localhost', dnsNames: ['localhost'], ips: ['127.0.0.1'] });
  const server = new APIServer({
    storage,
    bindAddress: '127.0.0.1',
    securePort: 0,
    tls,
    maxRequestsInflight: 400,
    maxMutatingRequestsInflight: 200,
    requestTimeoutMs: 60_000,
    version: orchVersion(),
    ...overrides,
  });
  await server.start();
  await server.bootstrap();
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
      'contexts:',
      '- name: orch',
      '  context: {cluster: orch, user: admin}',
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
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
