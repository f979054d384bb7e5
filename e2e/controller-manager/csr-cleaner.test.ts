import { CertificateSigningRequestKind, formatTime, type CertificateSigningRequest } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, isNotFound } from '@orch/client';
import { createCertificateRequest } from '@orch/component-base';
import { CONTROLLER_REGISTRY, CSRCleanerController } from '@orch/controller-manager';
import { startCluster, type Cluster } from './harness';

jest.setTimeout(60_000);

const HOUR = 3600_000;

describe('csrcleaner, passing every 200 ms', () => {
  let cluster: Cluster;
  const csrs = () => clientFor(cluster.rest, CertificateSigningRequestKind);
  const exists = async (name: string): Promise<boolean> => {
    try {
      await csrs().get(name);
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  };
  const create = (name: string) =>
    csrs().create({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name },
      spec: {
        request: Buffer.from(createCertificateRequest(name).request).toString('base64'),
        signerName: 'example.com/signer',
        usages: ['client auth'],
      },
    } as CertificateSigningRequest);
  /** Adds a condition of `type` last updated `agoMs` ago, through the subresource that takes it. */
  const condition = async (name: string, type: 'Denied' | 'Failed', agoMs: number) => {
    const csr = await csrs().get(name);
    const conditions = [
      ...(csr.status?.conditions ?? []),
      { type, status: 'True', reason: 'Test', lastUpdateTime: formatTime(Date.now() - agoMs) },
    ];
    const body = { ...csr, status: { ...csr.status, conditions } };
    if (type === 'Denied') await csrs().updateSubresource(name, 'approval', body);
    else await csrs().updateStatus(body);
  };

  beforeAll(async () => {
    cluster = await startCluster({
      controllers: ['csrcleaner'],
      registry: {
        csrcleaner: {
          ...CONTROLLER_REGISTRY.csrcleaner!,
          start: (ctx) => new CSRCleanerController(ctx, 200),
        },
      },
    });
  });
  afterAll(async () => {
    await cluster?.close();
  });

  test('deletes requests denied or failed over an hour ago, and keeps fresh ones', async () => {
    for (const name of ['old-denied', 'old-failed', 'fresh-denied', 'fresh-failed', 'pending'])
      await create(name);
    await condition('old-denied', 'Denied', 2 * HOUR);
    await condition('old-failed', 'Failed', HOUR + 60_000);
    await cluster.kubectl('certificate', 'deny', 'fresh-denied');
    await condition('fresh-failed', 'Failed', HOUR - 60_000);
    await eventually(async () => !(await exists('old-denied')), 'old-denied to be deleted');
    await eventually(async () => !(await exists('old-failed')), 'old-failed to be deleted');
    await new Promise((r) => setTimeout(r, 600));
    for (const name of ['fresh-denied', 'fresh-failed', 'pending'])
      expect({ name, exists: await exists(name) }).toEqual({ name, exists: true });
  });

  test('a day later, the pending request and the ones denied or failed since are gone too', async () => {
    await create('kept-until-later');
    cluster.advance(24 * HOUR + 60_000);
    for (const name of ['fresh-denied', 'fresh-failed', 'pending', 'kept-until-later'])
      await eventually(async () => !(await exists(name)), `${name} to be deleted`);
    expect(await cluster.kubectl('get', 'csr', '-o', 'name')).toBe('');
  });
});
