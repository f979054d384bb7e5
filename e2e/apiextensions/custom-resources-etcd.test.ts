import { EtcdCluster, startAPIServerProcess, type APIServerProcess } from '@orch/apiserver';
import { kubectl, kubectlOK } from '../harness/kubectl';

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.shared.example.com}
spec:
  group: shared.example.com
  scope: Cluster
  names: {plural: gadgets, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
`;

const gadget = 'apiVersion: shared.example.com/v1\nkind: Gadget\nmetadata: {name: g1}\nspec: {size: 3}\n';

/** Custom resources on etcd, with two API servers sharing it: each serves what the other defined. */
describe('CustomResourceDefinitions across API servers sharing etcd', () => {
  let etcd: EtcdCluster;
  let a: APIServerProcess;
  let b: APIServerProcess;

  beforeAll(async () => {
    etcd = await EtcdCluster.start({ members: 1 });
    a = await startAPIServerProcess({ etcdServers: etcd.endpoints });
    b = await startAPIServerProcess({ etcdServers: etcd.endpoints });
  }, 90_000);
  afterAll(async () => {
    await a?.destroy();
    await b?.destroy();
    await etcd?.stop();
  });

  it('serves on one server the kind defined through the other', async () => {
    await kubectlOK(a.kubeconfig, ['apply', '-f', '-'], crd);
    await kubectlOK(a.kubeconfig, [
      'wait',
      '--for',
      'condition=established',
      '--timeout=30s',
      'crd/gadgets.shared.example.com',
    ]);
    // b learns of the definition through its watch on etcd
    let created = await kubectl(b.kubeconfig, ['create', '-f', '-'], gadget);
    for (let i = 0; i < 50 && created.code !== 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      created = await kubectl(b.kubeconfig, ['create', '-f', '-'], gadget);
    }
    expect(created.stdout).toBe('gadget.shared.example.com/g1 created\n');
    const got = JSON.parse(await kubectlOK(a.kubeconfig, ['get', 'gadget', 'g1', '-o', 'json']));
    expect(got.spec.size).toBe(3);
  }, 60_000);

  it('re-establishes stored definitions when a server restarts', async () => {
    await b.stop();
    await b.restart();
    const got = JSON.parse(await kubectlOK(b.kubeconfig, ['get', 'gadget', 'g1', '-o', 'json']));
    expect(got.apiVersion).toBe('shared.example.com/v1');
  }, 60_000);
});
