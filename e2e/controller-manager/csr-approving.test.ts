import {
  CertificateSigningRequestKind,
  SubjectAccessReviewKind,
  type CertificateSigningRequest,
  type SubjectAccessReview,
} from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor } from '@orch/client';
import { createCertificateRequest } from '@orch/component-base';
import { startSecuredCluster, type SecuredCluster } from './securedCluster';

jest.setTimeout(90_000);

const KUBELET_CLIENT = 'kubernetes.io/kube-apiserver-client-kubelet';
const SELF_MESSAGE = 'Auto approving self kubelet client certificate after SubjectAccessReview.';
const NODE_MESSAGE = 'Auto approving kubelet client certificate after SubjectAccessReview.';

/** A CSR manifest for `commonName` in `organizations`. */
function csrManifest(
  name: string,
  commonName: string,
  organizations: string[],
  signerName = KUBELET_CLIENT,
): string {
  return JSON.stringify({
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request: Buffer.from(createCertificateRequest(commonName, organizations).request).toString('base64'),
      signerName,
      usages: ['digital signature', 'key encipherment', 'client auth'],
    },
  });
}

describe('csrapproving', () => {
  let cluster: SecuredCluster;
  const read = (name: string): Promise<CertificateSigningRequest> =>
    clientFor(cluster.rest, CertificateSigningRequestKind).get(name);
  /** Creates the CSR as `user` in `groups` (impersonated). */
  const createAs = (user: string, groups: string[], name: string, cn: string, o: string[], signer?: string) =>
    cluster.kubectl(
      'create',
      '-f',
      cluster.manifest(`${name}.json`, csrManifest(name, cn, o, signer)),
      `--as=${user}`,
      ...groups.map((g) => `--as-group=${g}`),
    );
  const approval = (csr: CertificateSigningRequest) =>
    csr.status?.conditions?.find((c) => c.type === 'Approved');
  const approved = (name: string) =>
    eventually(async () => approval(await read(name)), `${name} to be approved`, 30_000);

  beforeAll(async () => {
    cluster = await startSecuredCluster(['csrapproving']);
    // nodes renew their own client certificates (kubeadm's binding)
    await cluster.kubectl(
      'create',
      'clusterrolebinding',
      'node-autoapprove-certificate-rotation',
      '--clusterrole=system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
      '--group=system:nodes',
    );
    // carol may create requests, and nothing more
    await cluster.kubectl(
      'create',
      'clusterrole',
      'csr-creator',
      '--verb=create,get',
      '--resource=certificatesigningrequests',
    );
    await cluster.kubectl(
      'create',
      'clusterrolebinding',
      'carol-csr',
      '--clusterrole=csr-creator',
      '--user=carol',
    );
  });
  afterAll(async () => {
    await cluster?.close();
  });

  test('the bootstrap roles of node client approval exist as on Kubernetes', async () => {
    const rules = await cluster.kubectl(
      'get',
      'clusterrole',
      'system:certificates.k8s.io:certificatesigningrequests:nodeclient',
      'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
      '-o',
      'jsonpath={range .items[*]}{.rules[0].verbs} {.rules[0].resources}{"\\n"}{end}',
    );
    expect(rules).toBe(
      '["create"] ["certificatesigningrequests/nodeclient"]\n["create"] ["certificatesigningrequests/selfnodeclient"]\n',
    );
  });

  test("the controllers' service accounts may do what these controllers do", async () => {
    const can = async (sa: string, ...args: string[]) =>
      (
        await cluster
          .kubectl('auth', 'can-i', ...args, `--as=system:serviceaccount:orch-system:${sa}`)
          .catch((err: { stdout?: string }) => err.stdout ?? '')
      ).trim();
    expect(await can('certificate-controller', 'create', 'subjectaccessreviews.authorization.k8s.io')).toBe(
      'yes',
    );
    expect(
      await can('certificate-controller', 'update', 'certificatesigningrequests', '--subresource=approval'),
    ).toBe('yes');
    expect(await can('certificate-controller', 'delete', 'certificatesigningrequests')).toBe('yes');
    // kubectl cannot ask about signers (not a discoverable resource); the admission check asks so:
    const mayApprove = async (signer: string) => {
      const review = await clientFor(cluster.rest, SubjectAccessReviewKind).create({
        metadata: {},
        spec: {
          user: 'system:serviceaccount:orch-system:certificate-controller',
          groups: ['system:serviceaccounts', 'system:serviceaccounts:orch-system', 'system:authenticated'],
          resourceAttributes: {
            group: 'certificates.k8s.io',
            resource: 'signers',
            verb: 'approve',
            name: signer,
          },
        },
      } as SubjectAccessReview);
      return review.status?.allowed === true;
    };
    expect(await mayApprove('kubernetes.io/kube-apiserver-client-kubelet')).toBe(true);
    expect(await mayApprove('kubernetes.io/kubelet-serving')).toBe(false);
    expect(await can('clusterrole-aggregation-controller', 'patch', 'clusterroles')).toBe('yes');
    expect(await can('clusterrole-aggregation-controller', 'escalate', 'clusterroles')).toBe('yes');
    expect(await can('ttl-controller', 'patch', 'nodes')).toBe('yes');
    expect(await can('ttl-controller', 'delete', 'nodes')).toBe('no');
  });

  test("a node's request for its own client certificate is approved, AutoApproved", async () => {
    await createAs('system:node:n1', ['system:nodes'], 'node-n1', 'system:node:n1', ['system:nodes']);
    const condition = await approved('node-n1');
    expect(condition).toMatchObject({
      type: 'Approved',
      status: 'True',
      reason: 'AutoApproved',
      message: SELF_MESSAGE,
    });
    expect(condition.lastUpdateTime).toBeDefined();
    expect(await cluster.kubectl('get', 'csr', 'node-n1', '--no-headers')).toMatch(
      /^node-n1\s+\S+\s+kubernetes\.io\/kube-apiserver-client-kubelet\s+system:node:n1\s+\S+\s+Approved\n$/,
    );
  });

  test('requests the requester may not have approved stay pending; never denied', async () => {
    // a node asking for another node's certificate: recognized as nodeclient only, which it may not
    await createAs('system:node:n1', ['system:nodes'], 'n1-for-n2', 'system:node:n2', ['system:nodes']);
    // a user with no approval rights
    await createAs('carol', [], 'carol-n3', 'system:node:n3', ['system:nodes']);
    // not a node client certificate at all
    await createAs('system:node:n1', ['system:nodes'], 'n1-not-nodes', 'system:node:n1', ['admins']);
    await createAs(
      'system:node:n1',
      ['system:nodes'],
      'n1-other-signer',
      'system:node:n1',
      ['system:nodes'],
      'kubernetes.io/kube-apiserver-client',
    );
    await new Promise((r) => setTimeout(r, 1500));
    for (const name of ['n1-for-n2', 'carol-n3', 'n1-not-nodes', 'n1-other-signer'])
      expect({ name, conditions: (await read(name)).status?.conditions ?? [] }).toEqual({
        name,
        conditions: [],
      });
    expect(await cluster.kubectl('get', 'csr', 'carol-n3', '--no-headers')).toMatch(/\sPending\n$/);
  });

  test('once granted nodeclient, the pending request of its requester is approved', async () => {
    await eventually(async () => (await read('carol-n3')).metadata?.name, 'carol-n3');
    await cluster.kubectl(
      'create',
      'clusterrolebinding',
      'carol-nodeclient',
      '--clusterrole=system:certificates.k8s.io:certificatesigningrequests:nodeclient',
      '--user=carol',
    );
    expect(await approved('carol-n3')).toMatchObject({ reason: 'AutoApproved', message: NODE_MESSAGE });
    // a node-client request by carol for any node is now approved too
    await createAs('carol', [], 'carol-n4', 'system:node:n4', ['system:nodes']);
    expect(await approved('carol-n4')).toMatchObject({ reason: 'AutoApproved', message: NODE_MESSAGE });
  });
});
